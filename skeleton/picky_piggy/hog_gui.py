"""Play Hog in your browser, on the functions you wrote in hog.py.

    python3 hog_gui.py                 start the game and open it in your browser
    python3 hog_gui.py --no-browser    start it; open the address it prints yourself
    python3 hog_gui.py --help          every option (--port, --seed, ...)

Every game runs on your own hog.py: when a function raises an error or never finishes, the
page says which one and what happened. Change hog.py, save it, and press New game to play your
latest version. Press Ctrl+C here to stop.

This file only starts the kit's game server. It uses parts of Python the course has not
covered yet, and it does not need to change.
"""

import os
import sys

if sys.version_info < (3, 9):
    sys.exit('hog_gui.py needs Python 3.9 or newer, and this is Python ' + sys.version.split()[0]
             + '. Install a newer Python (python.org) and run it with that one.')

HERE = os.path.dirname(os.path.abspath(__file__))  # the folder holding this file

# The kit's engine (the graders folder) sits beside this file in the folder you were given, or
# two folders up when this folder is inside the kit itself.
sys.path.append(HERE + '/../..')

if __name__ == '__main__':
    try:
        from graders.gui.webgui import main
    except ModuleNotFoundError:
        sys.exit('hog_gui.py: cannot find the kit (the graders folder). Run it from the project '
                 'folder you were given; for a copy of a folder of the kit, run hogkit play PATH '
                 'with the kit installed.')
    sys.exit(main(HERE))
