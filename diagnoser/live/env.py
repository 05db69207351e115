"""`diagnoser env`: the environment in a few lines, and the checks that catch a broken install.

`light()` reads versions from the installed packages' metadata and never imports torch (the text
path and a prompt use it); `collect()` imports torch to read its CUDA/cuDNN build and the GPU.
The checks are pure functions over an `Env`, so each can be tested with any values.
"""

from __future__ import annotations

import platform
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path

from ..speak.i18n import t


@dataclass(frozen=True)
class Env:
    python: str
    os: str
    torch: str | None = None  # "2.13.0+cpu"; None when not installed
    torchvision: str | None = None
    numpy: str | None = None
    cuda_build: str | None = None  # torch.version.cuda: "12.4"; None for a CPU-only build
    hip_build: str | None = None  # torch.version.hip on ROCm builds
    cudnn: str | None = None
    cuda_available: bool | None = None  # None: torch was not imported to find out
    gpus: tuple[str, ...] = ()  # from nvidia-smi, or torch when nvidia-smi is absent
    driver: str | None = None  # the NVIDIA driver version


@dataclass(frozen=True)
class Finding:
    """One problem with the environment; `entry` is the KB entry that explains it."""

    check: str
    entry: str
    message: dict[str, str]


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _nvidia() -> tuple[tuple[str, ...], str | None]:
    """GPU names and the driver version, from nvidia-smi or the kernel module; no torch needed."""
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run(
                [smi, "--query-gpu=name,driver_version", "--format=csv,noheader"],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        rows = [[c.strip() for c in line.split(",")] for line in out.splitlines() if "," in line]
        if rows:
            return tuple(r[0] for r in rows), rows[0][-1]
    try:
        text = Path("/proc/driver/nvidia/version").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return (), None
    m = re.search(r"Kernel Module(?: for \w+)?\s+(\d+\.\d+(?:\.\d+)?)", text)
    return (), m.group(1) if m else None


def light() -> Env:
    """What the installed packages and the OS say, without importing torch."""
    return Env(
        python=platform.python_version(),
        os=platform.platform(terse=True),
        torch=_version("torch"),
        torchvision=_version("torchvision"),
        numpy=_version("numpy"),
    )


def collect() -> Env:
    """Everything, importing torch for its build (may take a few seconds)."""
    env = light()
    gpus, driver = _nvidia()
    env = replace(env, gpus=gpus, driver=driver)
    if env.torch is None:
        return env
    try:
        import torch  # the one place the environment report needs it
    except Exception:  # a broken install is itself worth a report, not a crash
        return env
    cudnn = None
    try:
        cudnn_version = torch.backends.cudnn.version()  # type: ignore[no-untyped-call]
        cudnn = str(cudnn_version) if cudnn_version else None
    except Exception:
        cudnn = None
    available = bool(torch.cuda.is_available())
    if available and not gpus:
        gpus = tuple(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count()))
    return replace(
        env,
        torch=torch.__version__,
        cuda_build=torch.version.cuda,
        hip_build=getattr(torch.version, "hip", None),
        cudnn=cudnn,
        cuda_available=available,
        gpus=gpus,
    )


# The oldest Linux driver each CUDA major version runs on (NVIDIA's minor-version compatibility:
# a cu12x wheel runs on any 12.x-era driver). From the CUDA toolkit release notes, table 2.
_MIN_DRIVER = {11: (450, 80, 2), 12: (525, 60, 13), 13: (580, 65, 6)}


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", version.split("+")[0])[:3])


def _expected_torchvision(torch_version: str) -> str | None:
    """torchvision's minor for a torch release: 2.N pairs with 0.(N+15), 1.N with 0.(N+1)."""
    nums = _numbers(torch_version)
    if len(nums) < 2:
        return None
    major, minor = nums[:2]
    if major == 2:
        return f"0.{minor + 15}"
    if major == 1 and minor >= 5:
        return f"0.{minor + 1}"
    return None


def _local(version: str) -> str:
    return version.split("+", 1)[1] if "+" in version else ""


def check(env: Env) -> list[Finding]:
    """The problems an `Env` from collect() shows (light() does not know torch's build)."""
    found = []
    knows_build = env.cuda_available is not None  # torch was imported to read its build
    if env.torch and env.gpus and knows_build and not env.cuda_build and not env.hip_build:
        found.append(
            Finding(
                "cpu-only-torch",
                "cuda-not-compiled",
                {
                    "en": f"This machine has an NVIDIA GPU ({env.gpus[0]}), but torch {env.torch} "
                    "is a CPU-only build: reinstall it from the CUDA index "
                    "(https://pytorch.org/get-started/locally/).",
                    "zh": f"这台机器有 NVIDIA GPU（{env.gpus[0]}），"
                    f"但装的 torch {env.torch} 是 CPU 版："
                    "请按 https://pytorch.org/get-started/locally/ 重新安装 CUDA 版。",
                },
            )
        )
    if env.cuda_build and env.driver:
        need = _MIN_DRIVER.get(_numbers(env.cuda_build)[0])
        have = _numbers(env.driver)
        if need and have and have < need:
            wanted = ".".join(map(str, need))
            found.append(
                Finding(
                    "driver-too-old",
                    "driver-too-old",
                    {
                        "en": f"torch {env.torch} is built for CUDA {env.cuda_build}, "
                        f"which needs an NVIDIA driver ≥ {wanted}; this machine has "
                        f"{env.driver}. Update the driver, or install a torch built for an "
                        "older CUDA.",
                        "zh": f"torch {env.torch} 是针对 CUDA {env.cuda_build} 编译的，"
                        f"需要 NVIDIA 驱动 ≥ {wanted}，这台机器的驱动是 {env.driver}。"
                        "升级驱动，或者换一个针对旧版 CUDA 编译的 torch。",
                    },
                )
            )
    if env.torch and env.torchvision:
        want = _expected_torchvision(env.torch)
        have_tv = ".".join(map(str, _numbers(env.torchvision)[:2]))
        builds_differ = _local(env.torch) != _local(env.torchvision)
        if (want and have_tv != want) or builds_differ:
            pair = f"torch {env.torch} / torchvision {env.torchvision}"
            hint = f"torchvision {want}.x" if want else "the torchvision built for it"
            found.append(
                Finding(
                    "torchvision-pair",
                    "torchvision-version-mismatch",
                    {
                        "en": f"{pair} do not belong together: this torch needs {hint}, from the "
                        "same index (same +cpu/+cuXXX build).",
                        "zh": f"{pair} 不是配套版本：这个 torch 要配 {hint}，并且要从同一个源安装"
                        "（同样的 +cpu/+cuXXX 构建）。",
                    },
                )
            )
    return found


def rows(env: Env, lang: str) -> list[tuple[str, str]]:
    """The report's lines, label and value; also the environment of a prompt or Markdown."""
    none = "—"
    out = [("Python", f"{env.python} ({sys.platform})"), ("OS", env.os)]
    if env.torch is None:
        out.append(("torch", t("env_missing", lang)))
    else:
        build = None
        if env.cuda_build:
            build = f"CUDA {env.cuda_build}"
        elif env.hip_build:
            build = f"ROCm {env.hip_build}"
        if env.cuda_available is None:
            out.append(("torch", env.torch))
        else:
            detail = f"{build or 'CPU-only'}, cuDNN {env.cudnn or none}"
            detail += f", cuda.is_available() = {env.cuda_available}"
            out.append(("torch", f"{env.torch} ({detail})"))
    if env.gpus or env.driver or env.cuda_available is not None:
        out.append(("GPU", ", ".join(env.gpus) or t("env_no_gpu", lang)))
        out.append(("NVIDIA driver", env.driver or none))
    out.append(("torchvision", env.torchvision or t("env_missing", lang)))
    out.append(("numpy", env.numpy or t("env_missing", lang)))
    return out


def report(env: Env, findings: list[Finding], lang: str, docs_url: str) -> str:
    from ..speak.render import page_url

    width = max(len(k) for k, _ in rows(env, lang))
    lines = [f"{k:<{width}}  {v}" for k, v in rows(env, lang)]
    lines += ["", t("env_checks", lang)]
    if not findings:
        lines.append("  " + t("env_ok", lang))
    for f in findings:
        lines.append(f"  ✗ {f.message[lang]}")
        lines.append(f"    → {f.entry}: {page_url(f.entry, lang, docs_url)}")
    return "\n".join(lines) + "\n"


def command(lang: str, *, as_json: bool = False) -> int:
    """`diagnoser env [--json]`: the report, then the findings; exits 0 either way."""
    import json
    import os
    from dataclasses import asdict

    from ..speak.render import DOCS_URL

    found = collect()
    findings = check(found)
    if as_json:
        out = {
            "environment": asdict(found),
            "findings": [
                {"check": f.check, "entry": f.entry, "message": f.message[lang]} for f in findings
            ],
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        docs = os.environ.get("DIAGNOSER_DOCS_URL") or DOCS_URL
        sys.stdout.write(report(found, findings, lang, docs))
    return 0
