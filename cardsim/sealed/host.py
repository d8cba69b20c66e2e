"""The bot's side of a sealed match: run as a script in a process of its own, it never imports cardsim.

``python -I host.py`` starts as the user who runs cardsim, seals itself (``seal``: its own network, IPC and
mount namespaces with the world-writable folders covered, an empty read-only working folder, an unprivileged
user of its own when started as root, not dumpable, resource limits), and only then runs the bot's code, which
it receives as text. From then on it answers one decision per message: the observation arrives as plain data
(``Pickler`` below) and is rebuilt as dataclasses of the same names and fields; the bot's ``random.Random`` lives
here, seeded each round with the seat's private seed (``cardsim.rng.bot_seed``), so a sealed bot draws exactly
what it would draw in cardsim's own process.

Framing, both ways: a 4-byte big-endian length, then the message. cardsim sends pickles of plain data on fd 0;
the bot answers JSON on the descriptor its first argument names (cardsim never unpickles what a bot sends). Its
stdout and stderr are files of the results folder, opened by cardsim.
"""

from __future__ import annotations

import ctypes
import dataclasses
import hashlib
import io
import json
import os
import pickle
import random
import resource
import signal
import struct
import sys
import traceback
import types

COMMANDS = 0  # the file descriptor of cardsim's messages; the bot answers on the one its first argument names
HEADER = struct.Struct("!I")
TUPLE = "tuple"  # a tuple in an answer: {"tuple": [...]} (JSON has lists only)

# Linux constants (sched.h, sys/mount.h, sys/prctl.h)
CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWNET = 0x00020000, 0x08000000, 0x10000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REC, MS_PRIVATE = 1, 2, 4, 1 << 14, 1 << 18
PR_SET_DUMPABLE = 4
WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue")  # where two bots could leave notes


_SHAPES: dict[type, tuple] = {}  # a dataclass -> (its name, frozen, field names), looked up once
_CLASSES: dict[tuple, type] = {}  # (name, frozen, field names) -> the dataclass the bot's side made for it


class Pickler(pickle.Pickler):
    """cardsim's side: an observation pickled as plain data, each dataclass as ``rebuild(shape, values)`` (its
    ``rng`` field left out: the seat's generator lives in the bot's process)."""

    def reducer_override(self, value):  # called for objects of classes other than the builtins only
        kind = type(value)
        shape = _SHAPES.get(kind)
        if shape is None:
            if not dataclasses.is_dataclass(kind):
                return NotImplemented
            shape = _SHAPES[kind] = (kind.__name__, kind.__dataclass_params__.frozen,
                                     tuple(f.name for f in dataclasses.fields(kind)))  # fmt: skip
        fields = value.__dict__
        return rebuild, (shape, tuple(None if n == "rng" else fields[n] for n in shape[2]))


def dumps(message) -> bytes:
    """A message of cardsim's, pickled by ``Pickler``."""
    buffer = io.BytesIO()
    Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(message)
    return buffer.getvalue()


def rebuild(shape: tuple, values: tuple):
    """The bot's side: a dataclass of the same name and fields as cardsim's (made once per shape), with ``values``."""
    cls = _CLASSES.get(shape)
    if cls is None:
        cls = _CLASSES[shape] = dataclasses.make_dataclass(shape[0], shape[2], frozen=shape[1])
    made = object.__new__(cls)  # its fields set at once, not one frozen __setattr__ each
    made.__dict__.update(zip(shape[2], values, strict=True))
    return made


class Unpickler(pickle.Unpickler):
    """The bot's side of ``Pickler``: plain data, and ``rebuild`` the only function a message may name."""

    def find_class(self, module, name):
        if name == "rebuild" and module in ("cardsim.sealed.host", __name__):
            return rebuild
        raise pickle.UnpicklingError(f"{module}.{name} is not part of cardsim's messages")


def loads(data: bytes):
    return Unpickler(io.BytesIO(data)).load()


def answer_json(value):
    """A bot's answer as JSON data, or raise TypeError naming what is not plain data (a tuple becomes
    {"tuple": [...]}; an integer-like number such as numpy.int64 an int)."""
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        items = [answer_json(v) for v in value]
        return {TUPLE: items} if isinstance(value, tuple) else items
    if hasattr(value, "__index__"):
        return int(value.__index__())
    raise TypeError(f"returned an object of type {type(value).__name__}, which is no action")


def send(fd: int, data: bytes) -> None:
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def receive(fd: int, read=os.read) -> bytes:
    """The next message on ``fd``: the two sides take turns, so no second message follows it unread. ``read``
    (``os.read``'s form) may wait with a time limit (cardsim's side)."""
    data = read(fd, 1 << 16)
    while len(data) < HEADER.size or len(data) < HEADER.size + HEADER.unpack_from(data)[0]:
        more = read(fd, 1 << 16)
        if not more:
            raise EOFError
        data += more
    return data[HEADER.size:]


def reply(**message) -> None:
    send(int(sys.argv[1]), json.dumps(message).encode())


# ---------------------------------------------------------------- sealing


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _through_descriptors() -> None:
    """Keep the interpreter's import folders reachable once sealed: an unprivileged user cannot enter ``/root``
    (where pyenv installs Python for root), and a folder under ``/tmp`` is covered by the mounts, so each folder on
    ``sys.path`` is opened now and imported through ``/proc/self/fd/N`` (a process always reaches its own
    descriptors). Nothing beneath those folders becomes readable that their own permissions do not allow."""
    opened = {}
    for path in sys.path:
        if path and path not in opened and os.path.isdir(path):
            opened[path] = f"/proc/self/fd/{os.open(path, os.O_RDONLY | os.O_DIRECTORY)}"

    def moved(path: str) -> str:
        for folder, alias in opened.items():
            if path == folder or path.startswith(folder + os.sep):
                return alias + path[len(folder):]
        return path

    sys.path[:] = [opened[p] for p in sys.path if p in opened]
    for module in list(sys.modules.values()):
        search = getattr(module, "__path__", None)
        if isinstance(search, list):
            search[:] = [moved(p) for p in search]
    sys.path_importer_cache.clear()


def _namespaces(libc, as_root: bool) -> list[str]:
    """Own network (no sockets to anyone), IPC and mount namespaces, the world-writable folders covered by empty
    read-only ones: two bots cannot talk. Without root, through a user namespace where the kernel allows one."""
    flags = CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET | (0 if as_root else CLONE_NEWUSER)
    if libc.unshare(flags) != 0:
        return []
    done = ["network", "ipc"]
    if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) == 0:
        covered = [d for d in WRITABLE if os.path.isdir(d) and libc.mount(
            b"tmpfs", d.encode(), b"tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, b"size=4k,mode=0555") == 0]
        done.append("mount (" + " ".join(covered) + " read-only)")
    return done


def seal(setup: dict) -> dict:
    """Seal this process before any bot code runs; returns what was done (cardsim records it)."""
    libc = _libc()
    as_root = os.geteuid() == 0
    _through_descriptors()
    os.chdir(setup["folder"])  # before the mounts, which may cover the folder's path
    isolation = {"namespaces": _namespaces(libc, as_root)}
    if as_root:
        os.setgroups([])
        os.setgid(setup["gid"])
        os.setuid(setup["uid"])
    isolation["uid"] = os.getuid()
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # no ptrace and no /proc/<pid>/mem for its own user either
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a full log: the write fails, the bot is told
    limits = {resource.RLIMIT_AS: setup["memory"], resource.RLIMIT_FSIZE: setup["output"],
              resource.RLIMIT_CORE: 0, resource.RLIMIT_NPROC: setup["processes"]}
    for kind, value in limits.items():
        try:
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):  # a limit above the hard one this process inherited: keep that one
            soft, hard = resource.getrlimit(kind)
            resource.setrlimit(kind, (min(value, hard) if hard >= 0 else value, hard))
    return isolation


# ---------------------------------------------------------------- the bot


def where(exc: BaseException) -> str:
    """``raised ValueError: ... (at my_bots.py:12)``, as cardsim names a bot's exception in its own process."""
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f" (at {os.path.basename(frame.filename)}:{frame.lineno})" if frame else ""
    return f"raised {type(exc).__name__}: {exc}{at}"


def load(path: str, source: str, name: str, methods: list[str]) -> type:
    """The bot's class from its file's text, loaded as cardsim loads it in its own process (``cardsim.lineup``:
    a module named by a digest of the text)."""
    module = types.ModuleType(f"cardsim_user_bots_{hashlib.blake2b(source.encode(), digest_size=8).hexdigest()}")
    module.__file__ = path
    sys.modules[module.__name__] = module  # before it runs: dataclasses and pickling look the module up
    exec(compile(source, path, "exec"), module.__dict__)
    cls = getattr(module, name, None)
    if not isinstance(cls, type):
        found = sorted(n for n, v in vars(module).items() if isinstance(v, type) and not n.startswith("_"))
        problem = f"has no class {name}" if cls is None else f"defines {name} as {type(cls).__name__}"
        listed = ", ".join(found) or "none"
        raise LookupError(f"{path} {problem}; a sealed bot is a class, and those there are: {listed}")
    missing = [m for m in methods if not callable(getattr(cls, m, None))]
    if missing:
        raise LookupError(f"it lacks the method(s) {', '.join(m + '(obs)' for m in missing)}")
    return cls


def decide(bot, method: str, observation) -> dict:
    """The bot's answer to one decision as the message to send: ``answer``, or ``error`` naming what it raised
    (SystemExit included) or returned."""
    try:
        answer = getattr(bot, method)(observation)
    except BaseException as exc:  # the bot's code: cardsim names whatever it raised
        return {"error": where(exc)}
    try:
        return {"answer": answer_json(answer)}
    except (TypeError, RecursionError) as exc:
        return {"error": str(exc) if isinstance(exc, TypeError) else "returned data nested too deeply"}


def serve() -> None:
    """Seal, load the bot, then answer decisions until cardsim closes the pipe."""
    setup = loads(receive(COMMANDS))
    reply(ready=seal(setup))
    try:
        cls = load(*loads(receive(COMMANDS)))
    except BaseException as exc:  # the user's file: report whatever broke it
        reply(error=str(exc) if isinstance(exc, LookupError) else f"loading it failed: {where(exc)}")
        return
    reply(ready=True)
    bot, rng = None, None
    while True:
        try:
            method, seed, new, observation = loads(receive(COMMANDS))
        except EOFError:
            return
        if new:
            try:
                bot = cls()
            except BaseException as exc:  # the user's constructor
                reply(error=f"{cls.__name__}() failed ({where(exc)}); a bot class is made without arguments")
                continue
        if seed is not None:
            rng = random.Random(seed)
        if "rng" in observation.__dict__:
            observation.__dict__["rng"] = rng
        reply(**decide(bot, method, observation))


if __name__ == "__main__":
    try:
        serve()
    finally:  # whatever the bot left running (threads, atexit handlers) does not keep the process alive
        sys.stdout.flush()
        os._exit(0)
