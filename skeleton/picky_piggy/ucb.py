"""Small helpers shared by the course's projects: main, trace and interact."""

import code
import functools
import inspect
import signal
import sys


def main(fn):
    """Call FN with the command-line arguments when its file is run as a script.

    Use it as a decorator: @main above a function runs that function only
    when the file is started with python3, not when it is imported.
    """
    if sys._getframe(1).f_globals['__name__'] == '__main__':
        args = sys.argv[1:]
        fn(*args)
    return fn


_PREFIX = ''


def trace(fn):
    """Print each call of FN, with its arguments, and what it returns.

    Use it as a decorator: put @trace above a function you are debugging.
    """
    @functools.wraps(fn)
    def wrapped(*args, **kwds):
        global _PREFIX
        reprs = [repr(e) for e in args]
        reprs += [repr(k) + '=' + repr(v) for k, v in kwds.items()]
        log('{0}({1})'.format(fn.__name__, ', '.join(reprs)) + ':')
        _PREFIX += '    '
        try:
            result = fn(*args, **kwds)
            _PREFIX = _PREFIX[:-4]
        except Exception as e:
            log(fn.__name__ + ' exited via exception')
            _PREFIX = _PREFIX[:-4]
            raise
        log('{0}({1}) -> {2}'.format(fn.__name__, ', '.join(reprs), result))
        return result
    return wrapped


def log(message):
    """Print MESSAGE indented to the depth of the calls being traced."""
    print(_PREFIX + str(message).replace('\n', '\n' + _PREFIX))


def log_current_line():
    """Print the line number of the code that called this function."""
    import inspect
    log('Current line: ' + str(inspect.stack()[1][2]))


def interact(msg=None):
    """Open an interactive Python session right where this is called.

    Every name visible at that point can be used. Type Ctrl-D (Ctrl-Z then
    Enter on Windows) to leave and let the program carry on.
    """
    frame = inspect.currentframe().f_back
    namespace = frame.f_globals.copy()
    namespace.update(frame.f_locals)

    def handler(signum, frame):
        print()
        exit(0)
    signal.signal(signal.SIGINT, handler)

    if not msg:
        _, filename, line, _, _, _ = inspect.stack()[1]
        msg = 'Interacting at File "{0}", line {1} \n'.format(filename, line)
        msg += '    Unix:    <Control>-D continues the program; \n'
        msg += '    Windows: <Control>-Z <Enter> continues the program; \n'
        msg += '    exit() or <Control>-C exits the program'
    code.interact(msg, None, namespace)
