"""The browser edition's pins: Pyodide, the Lite build tools and the kernel's wheels, each at one version.

Taught by no notebook; ``python3 tasks.py lite`` (:mod:`tools.publish.lite`) builds the site
from these pins only, checking every download against its sha256.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "PYODIDE_VERSION",
    "PYODIDE_PYTHON",
    "PYODIDE_TARBALL_SHA256",
    "PYODIDE_FILES",
    "BUILD_REQUIREMENTS",
    "Wheel",
    "KERNEL_START_WHEELS",
    "EXTRA_WHEELS",
    "PROJECT_KEY",
    "PROJECT_IMPORTS",
    "PROJECT_DEPENDS",
]

#: The Pyodide that jupyterlite-pyodide-kernel 0.8.6 expects (its ``PYODIDE_VERSION``).
PYODIDE_VERSION = "314.0.6"
#: The Python inside that Pyodide (3.14.2).
PYODIDE_PYTHON = "3.14"
#: sha256 of ``npm pack pyodide@314.0.6``.
PYODIDE_TARBALL_SHA256 = "d78ac549b28a2a58600cd06f44e017024151775f8c6b2d73fab1475400d38ea2"
#: The files of the npm package the site needs (no source maps, consoles or type stubs).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)

#: The Lite build tools and everything they need, pinned (resolved on Python 3.11).
BUILD_REQUIREMENTS = (
    "jupyterlite-core==0.8.6",
    "jupyterlite-pyodide-kernel==0.8.6",
    "jupyterlab_widgets==3.0.17",
    "widgetsnbextension==4.0.16",
    "ipywidgets==8.1.9",
    "jupyter_server==2.21.1",
    "anyio==4.16.0",
    "argon2-cffi==25.1.0",
    "argon2-cffi-bindings==26.2.0",
    "arrow==1.4.0",
    "asttokens==3.0.2",
    "attrs==26.1.0",
    "beautifulsoup4==4.15.0",
    "bleach==6.4.0",
    "cffi==2.1.1",
    "comm==0.2.3",
    "defusedxml==0.7.1",
    "doit==0.37.0",
    "executing==2.3.0",
    "fastjsonschema==2.22.3",
    "fqdn==1.6.0",
    "idna==3.20",
    "ipython==9.18.1",
    "ipython_pygments_lexers==1.1.1",
    "isoduration==20.11.0",
    "jedi==0.20.1",
    "Jinja2==3.1.6",
    "jsonpointer==3.12",
    "jsonschema==4.26.0",
    "jsonschema-specifications==2025.9.1",
    "jupyter-events==0.12.1",
    "jupyter_client==8.10.0",
    "jupyter_core==5.9.1",
    "jupyter_server_terminals==0.5.4",
    "jupyterlab_pygments==0.3.0",
    "lark==1.3.1",
    "MarkupSafe==3.0.4",
    "matplotlib-inline==0.2.2",
    "mistune==3.4.0",
    "nbclient==0.11.0",
    "nbconvert==7.17.2",
    "nbformat==5.11.1",
    "overrides==7.7.0",
    "packaging==26.4",
    "pandocfilters==1.5.1",
    "parso==0.8.7",
    "pexpect==4.9.0",
    "pkginfo==2.0",
    "platformdirs==4.14.9",
    "prometheus_client==0.26.0",
    "prompt_toolkit==3.0.53",
    "psutil==7.2.2",
    "ptyprocess==0.7.0",
    "pure_eval==0.2.4",
    "pycparser==3.12",
    "Pygments==2.21.0",
    "python-dateutil==4.0.0",
    "python-json-logger==4.2.0",
    "PyYAML==6.0.4",
    "pyzmq==27.3.0",
    "referencing==0.37.0",
    "rfc3339-validator==0.1.4",
    "rfc3986-validator==0.1.1",
    "rfc3987-syntax==1.1.0",
    "rpds-py==2026.9.1",
    "Send2Trash==2.2.0",
    "six==1.17.0",
    "soupsieve==4.1.3",
    "stack-data==0.6.3",
    "terminado==0.18.1",
    "tinycss2==1.5.1",
    "tornado==6.6.1",
    "traitlets==5.16.1",
    "typing_extensions==4.16.0",
    "tzdata==2026.6",
    "uri-template==1.3.0",
    "wcwidth==0.9.4",
    "webcolors==25.10.0",
    "webencodings==0.6.1",
    "websocket-client==1.9.2",
)


@dataclass(frozen=True)
class Wheel:
    """One pinned pure-Python wheel from PyPI: the lock key, the version and the file's sha256."""

    key: str  # the (normalized) key in pyodide-lock.json
    version: str
    sha256: str
    imports: tuple[str, ...] = ()  # for entries added to the lock
    depends: tuple[str, ...] = ()

    @property
    def requirement(self) -> str:
        return f"{self.key}=={self.version}"


#: The packages the kernel loads from the Pyodide folder at start (micropip and packaging,
#: then IPython with its dependencies, jedi and parso), at the versions of Pyodide
#: 314.0.6's lock. PyPI's wheels are not byte-identical to Pyodide's builds; the lock is
#: rewritten to these files and hashes.
KERNEL_START_WHEELS = (
    Wheel("asttokens", "3.0.1", "15a3ebc0f43c2d0a50eeafea25e19046c68398e487b9f1f5b517f7c0f40f976a"),
    Wheel("decorator", "5.2.1", "d316bb415a2d9e2d2b3abcc4084c6502fc09240e292cd76a76afc106a1c8e04a"),
    Wheel("executing", "2.2.1", "760643d3452b4d777d295bb167ccc74c64a81df23fb5e08eff250c425a4b2017"),
    Wheel("ipython", "9.12.0", "0f2701e8ee86e117e37f50563205d36feaa259d2e08d4a6bc6b6d74b18ce128d"),
    Wheel("jedi", "0.19.2", "a8ef22bde8490f57fe5c7681a3c83cb58874daf72b4784de3cce5b6ef6edb5b9"),
    Wheel("matplotlib-inline", "0.2.1", "d56ce5156ba6085e00a9d54fead6ed29a9c47e215cd1bba2e976ef39f5710a76"),
    Wheel("micropip", "0.11.1", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"),
    Wheel("packaging", "26.1", "5d9c0669c6285e491e0ced2eee587eaf67b670d94a19e94e3984a481aba6802f"),
    Wheel("parso", "0.8.6", "2c549f800b70a5c4952197248825584cb00f033b29c692671d3bf08bf380baff"),
    Wheel("prompt-toolkit", "3.0.52", "9aac639a3bbd33284347de5ad8d68ecc044b91a762dc39b7c21095fcd6a19955"),
    Wheel("pure-eval", "0.2.3", "1db8e35b67b3d218d818ae653e27f06c3aa420901fa7b081ca98cbedc874e0d0"),
    Wheel("pygments", "2.20.0", "81a9e26dd42fd28a23a2d169d86d7ac03b46e2f8b59ed4698fb4785f946d0176"),
    Wheel("six", "1.17.0", "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274"),
    Wheel("stack-data", "0.6.3", "d5558e0c25a4cb0853cddad3d77da9891a08cb85dd9f9f91b9f8cd66e511e695"),
    Wheel("traitlets", "5.14.3", "b74e89e397b1ed28cc831db7aea759ba6640cb3de13090ca145426688ff1ac4f"),
    Wheel("wcwidth", "0.6.0", "1a3a1e510b553315f8e146c54764f4fb6264ffad731b3d78088cdb1478ffbdad"),
)

#: Wheels not in Pyodide's lock, added to it: comm (the kernel's own wheel needs it),
#: ipywidgets (its front end, jupyterlab_widgets, is in the build environment), fsrs with
#: typing-extensions (the drill's spaced-review schedule) and fastjsonschema (progress files).
EXTRA_WHEELS = (
    Wheel(
        "comm",
        "0.2.3",
        "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417",
        imports=("comm",),
        depends=("traitlets",),
    ),
    Wheel(
        "ipywidgets",
        "8.1.9",
        "f2b8cbcaae10252b809fbe4d7470db75c09b769a32cbf816d20e5ca6d3c5a79d",
        imports=("ipywidgets",),
        depends=("comm", "ipython", "traitlets"),
    ),
    Wheel(
        "fastjsonschema",
        "2.22.3",
        "f670b443830b75aca3f00b75949efa20f4b2a80302ec7a21505c28dd54cffd43",
        imports=("fastjsonschema",),
    ),
    Wheel(
        "typing-extensions",
        "4.16.0",
        "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8",
        imports=("typing_extensions",),
    ),
    Wheel(
        "fsrs",
        "6.3.2",
        "bc55066c821164b1cff6d75b17a3ed8e86cfd45789e3d775cfcb895319ce9ba4",
        imports=("fsrs",),
        depends=("typing-extensions",),
    ),
)

#: This project's lock entry: ``import helpers``, ``import eval_integrity_helpers`` (or ``from helpers.trainee.widgets import …``)
#: loads it, and ipywidgets with it.
PROJECT_KEY = "eval-integrity-helpers"
PROJECT_IMPORTS = ("helpers", "eval_integrity_helpers")
PROJECT_DEPENDS = ("ipywidgets", "fsrs", "fastjsonschema")
