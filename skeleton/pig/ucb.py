"""Tools for watching a program run: main, trace, log_current_line and interact.

    @main above a function runs it when its file is started with python3.
    @trace above a function prints every call of it and what it returns.
    log_current_line() prints the number of the line it is called from.
    interact() opens a Python prompt with the names visible where it is called.
"""

import code
import functools
import inspect
import signal
import sys


def main(fn):
    """Call FN with the command-line arguments when its file is run as a
    program (python3 pig.py ...), and not when the file is imported.
    """
    if sys._getframe(1).f_globals['__name__'] == '__main__':
        fn(*sys.argv[1:])
    return fn


_depth = ''


def trace(fn):
    """Print each call of FN with its arguments, then what it returned.

    Calls made while FN runs are indented under it, so a recursive or nested
    computation shows its shape.
    """
    @functools.wraps(fn)
    def traced(*args, **kwds):
        global _depth
        shown = [repr(a) for a in args] + [k + '=' + repr(v) for k, v in kwds.items()]
        call = fn.__name__ + '(' + ', '.join(shown) + ')'
        log(call + ':')
        _depth += '    '
        try:
            result = fn(*args, **kwds)
        except Exception:
            _depth = _depth[:-4]
            log(fn.__name__ + ' stopped with an exception')
            raise
        _depth = _depth[:-4]
        log(call + ' -> ' + repr(result))
        return result
    return traced


def log(message):
    """Print MESSAGE, indented as deep as the calls being traced."""
    print(_depth + str(message).replace('\n', '\n' + _depth))


def log_current_line():
    """Print the number of the line this function was called from."""
    log('Current line: ' + str(inspect.stack()[1][2]))


def interact(msg=None):
    """Stop here and open a Python prompt that sees every name visible at the
    point of the call. Ctrl-D (Ctrl-Z then Enter on Windows) leaves the prompt
    and lets the program go on; Ctrl-C or exit() ends the program.
    """
    frame = inspect.currentframe().f_back
    namespace = dict(frame.f_globals)
    namespace.update(frame.f_locals)

    def leave(signum, frame):
        print()
        sys.exit(0)
    signal.signal(signal.SIGINT, leave)

    if not msg:
        _, filename, line, _, _, _ = inspect.stack()[1]
        msg = 'Interacting at File "{0}", line {1}\n'.format(filename, line)
        msg += '    Ctrl-D (Ctrl-Z then Enter on Windows) goes on with the program;\n'
        msg += '    exit() or Ctrl-C ends it.'
    code.interact(msg, None, namespace)
