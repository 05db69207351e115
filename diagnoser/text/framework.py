"""Whether a paste visibly comes from another framework than PyTorch: TensorFlow's or Paddle's
log lines, imports of Keras, MindSpore or JAX, an R session's library() calls, and no word of
torch anywhere. Many such posts never name their framework: its runtime names it for them
(TensorFlow's ResourceExhaustedError and GPU_0_bfc allocator, Keras' progress bar, MXNet's
pooled_storage_manager, Caffe's solver lines, MATLAB's "Error in f (line N)", the JVM's
java.lang errors). An error entry explains a message PyTorch prints: retold in words beside another
framework's log ("显卡内存不够" under TensorFlow's device lines), or printed by it in
PyTorch's words (Paddle's "an illegal memory access was encountered at [/paddle/fluid/...]"), it
is that framework's error, with other causes and fixes. So is a training behaviour (a loss that does
not fall, a slow input pipeline) shown in its log or told beside it: its code and fixes are that
framework's (the held-aside sets' labelling rule since heldout5); a network written by hand in
NumPy likewise. Gradient-boosted trees and statistics packages (an R session naming no network)
are no network at all: their rounds and fits have none of the causes the entries give (learning
rate, zero_grad, BatchNorm, DataLoader workers).

A training behaviour is left to another framework by what only that framework prints or names:
Keras' fit() (its bar with the time per step, "Train on N samples", its API), MXNet's Speedometer,
Darknet's "avg loss" and "Region Avg IOU" lines, Keras, MXNet, Gluon, JAX or Darknet named in
prose. Keras' bar alone (seconds only) is no sign, as PyTorch loops imitate it. (An evaluation
tool scoring result files, with no model or training named, is ruled out by the kb entries it
would resemble: dropout-active-at-eval's and results-not-reproducible's `ruled_out_by`.)"""

from __future__ import annotations

from functools import cache

from ..knowledge.regex_cache import compile_cached
from ..knowledge.substrings import automaton

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs a plain diagnosis's start-up (tests/test_cli.py)
    from typing import Any

# Keras' progress bar ("1875/1875 [=====] - 5s 3ms/step - loss: ..." or "- ETA: 2:03"), the bar
# alone: PyTorch loops that imitate Keras print it too ("32/32 [=====] - 0s - loss: ...")
_KERAS_BAR = (
    ("] - ",),
    r"(?m)^[^\S\n]*(?:Epoch \d{1,6}/\d{1,6}[^\S\n]+)?\d{1,7}/\d{1,7}[^\S\n]\[[=>.]{10,60}\]"
    r"[^\S\n]-[^\S\n](?:ETA|\d)",
)

# Each framework by its cues and its pattern: a pattern is asked only of a paste that holds one
# of its cues (lowered), as every paste with an error an entry fits is asked, most naming none.
_OTHER: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("tensorflow", "keras", "mindspore", "paddle", "jax", "mxnet", "tf."),
        r"(?im)^[^\S\n]*(?:import|from)[^\S\n]+(?:tensorflow|keras|mindspore|paddle|jax|mxnet)\b"
        r"|\b(?:tensorflow|mxnet)/(?:core|python|stream_executor|compiler)/"
        r"|(?:^|(?<=[`'\"]))(?:INFO|WARNING|ERROR):tensorflow:"  # a log line, or one quoted
        r"|\btf\.(?:keras|compat|data|function|Session|config|train|estimator|placeholder|Variable"
        r"|get_variable|variable_scope|layers|losses|nn|GradientTape|summary|saved_model|contrib)\b"
        r"|\b(?:mindspore|paddlepaddle)\b|\bpaddle::|/paddle/(?:fluid|phi)/"
        r"|\bpaddle\.(?:fluid|nn|optimizer|static|io|vision|jit|to_tensor|set_device|distributed)\b"
        r"|\bkeras\.(?:layers|models|backend|callbacks|optimizers|losses|utils|engine|applications)\b"
        r"|\bkeras[/\\](?:engine|backend|models|legacy|layers|src)\b"  # its files in a traceback
        # MXNet's error and library; JAX's modules and its compiled half
        r"|\bmxnet\.base\b|\blibmxnet\b|\bMXNetError\b"
        r"|\bjax\.(?:numpy|random|jit|grad|vmap|pmap|lax|tree_util|device_put)\b"
        r"|\bjax[/\\.]_src\b|\bjaxlib\b"
        # TensorFlow named in the prose of a post that never names torch ("when I ran the
        # train.py in the tensorflow"): a Python error it shows (an unpacking, a KeyError) is then
        # TensorFlow's program's
        # (its repositories' names too: "tensorflow_practice", "SSD-Tensorflow", "TensorFlow2"),
        # and Keras likewise ("the Keras model's loss becomes NaN", "CSRNet-keras")
        r"|(?<![a-z])(?:tensorflow|keras)(?![a-z])",
    ),
    (
        # A network written by hand in NumPy ("Z1 = np.dot(W1, X) + b1", "1 / (1 + np.exp(-z))")
        # with no PyTorch API in the post: its training has none of PyTorch's causes and fixes
        ("np.dot", "np.exp", "np.matmul", "np.tanh"),
        r"\A(?![\s\S]*(?:\bnn\.|\.backward\(|\bDataLoader\b|\.cuda\(|\btensor\())"
        r"[\s\S]*?\bnp\.(?:dot|exp|matmul|tanh)\(",
    ),
    (
        # Apple's MLX, by mlx_lm's training lines ("Iter 010: Train loss 3.337, It/sec 0.184,
        # Tokens/sec 76.415"), which name no framework
        ("it/sec", "tokens/sec"),
        r"(?m)^[^\S\n]*(?:Epoch \d{1,6}: )?Iter \d{1,9}: Train loss [-\d.]{1,20}, "
        r"(?:[\w ]{1,30}[-\d.e+]{1,20}, ){0,3}(?:It|Tokens)/sec\b",
    ),
    (
        # TensorFlow's runtime, its name cut off: ResourceExhaustedError's "OOM when allocating
        # tensor with shape[...] ... by allocator GPU_0_bfc", its device and graph-node names;
        # RESOURCE_EXHAUSTED, the status of TensorFlow's and XLA's (JAX's) allocators
        # cuDNN's and cuBLAS's handles named by its stream executor ("Could not create cudnn
        # handle: CUDNN_STATUS_INTERNAL_ERROR", "failed to create cublas handle"): PyTorch says
        # "cuDNN error: CUDNN_STATUS_..." and "... when calling `cublasCreate(handle)`"
        # TensorFlow's optimizer given no gradient at all ("ValueError: No gradients provided for
        # any variable: ['Embedding-Token/embeddings:0'", bert4keras): torch says no such thing.
        # Its status errors: InvalidArgumentError, and Assign's "lhs shape= [3,3,2,16] rhs shape=
        # [3,3,3,16]" restoring a checkpoint into another shape (torch names no lhs and rhs)
        (
            *("resourceexhausted", "resource_exhausted", "oom when allocating", "_bfc"),
            *("job:localhost", "cudnn handle", "cublas handle", "no gradients provided"),
            *("invalidargumenterror", "lhs shape="),
        ),
        r"(?i)\bResourceExhaustedError\b|\bOOM when allocating tensor\b|\bGPU_\d+_bfc\b"
        r"|\bNo gradients provided for any variable\b|(?-i:\bInvalidArgumentError\b)"
        r"|\blhs shape= ?\[[\d, ]{0,40}\],? rhs shape= ?\["
        r"|(?-i:\bRESOURCE_EXHAUSTED\b)|/job:localhost/replica:"
        r"|\b(?:could not|failed to) (?:create|destroy) cu(?:dnn|blas) handle\b",
    ),
    (("[[{{node", "[[node: "), r"\[\[(?:\{\{node|Node:) "),
    _KERAS_BAR,
    (
        # Keras' training API: a compile() given a loss, fit_generator, a fit() given Keras' own
        # arguments, layers added to a model one by one (PyTorch has none of these) ...
        ("fit_generator(", "compile(", ".fit(", ".add("),
        r"\bfit_generator\(|\.compile\([^)\n]{0,200}?\b(?:loss|metrics)[^\S\n]*="
        r"|\.fit\([^)\n]{0,200}?\b(?:nb_epoch|validation_split|steps_per_epoch)[^\S\n]*="
        r"|\bmodel\.add\((?:Dense|Conv[123]D|LSTM|GRU|SimpleRNN|Dropout|Flatten|Activation"
        r"|MaxPooling[123]D|Embedding|BatchNormalization)\(",
    ),
    (
        # ... and the lines only Keras' own fit() prints: its bar with the time per step ("- 24s
        # 96ms/step -", Keras 2 and tf.keras; Keras 3 draws "━━━━"), "Train on 2064384 samples,
        # validate on 1125000 samples" (Keras 1 and 2), its callbacks' messages. pkbar copies the
        # bar with its time per step, but its users' posts show their PyTorch loop. The first
        # line of model.summary() too ('Model: "sequential"'): torchsummary copies the table
        # below it, never that line.
        (
            *("/step", "eta: ", "━", "train on ", "improved from", "reducelronplateau"),
            'model: "',
        ),
        r"(?m)^[^\S\n]*\d{1,7}/\d{1,7}[^\S\n]+(?:\[[=>.]{5,60}\][^\S\n]-|━{5,60})[^\S\n]"
        r"(?:ETA: [\d:]{1,8}|\d{1,6}s[^\S\n]+\d{1,6}(?:ms|us|µs|s)/step)\b"
        r"|^[^\S\n]*Train on \d{1,10} samples(?:, validate on \d{1,10} samples)?[^\S\n]*$"
        r"|\bEpoch \d{1,6}: (?:val_)?\w{1,40} (?:improved|did not improve) from\b"
        r"|\bReduceLROnPlateau reducing learning rate\b"
        r'|^[^\S\n]*Model: "[\w.-]{1,80}"[^\S\n]*$',
    ),
    # PaddleOCR's and PaddleDetection's loggers and packages; Paddle's toolkits named in prose
    # ("paddlex实例分割训练") and its allocator's message ("Out of memory error on GPU 0. Cannot
    # allocate 7.78GB memory on GPU 0", PyTorch's says "Tried to allocate")
    (
        ("ppocr", "ppdet", "paddle", "out of memory error on gpu"),
        r"\bpp(?:ocr|det)\b|(?i:(?<![a-z0-9_])paddle(?:x|ocr|detection|seg|nlp|hub|speech|clas|gan"
        r"|slim|paddle)(?![a-z0-9_]))|\bOut of memory error on GPU \d{1,3}\. Cannot allocate\b",
    ),
    # ONNX Runtime's own errors and files ("onnxruntime::CudaCall ... CUDA failure 35",
    # "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT"): a model exported from PyTorch names torch too
    (("onnxruntime",), r"(?i)\bonnxruntime(?:::|[/\\.]capi\b)|\[ONNXRuntimeError\]"),
    (
        # llama.cpp's ggml and the programs built on it (Ollama, LM Studio): C++ and Go, which
        # print the CUDA and ROCm runtime's words ("ROCm error: invalid device function",
        # "no kernel image is available") from their own kernels
        ("ggml", "ollama", "llama.cpp", "llama_", "llama runner"),
        r"(?i)\bggml(?:[_-]\w|\b)|\bollama\b|\bllama\.cpp\b|\bllama_(?:model|new_context|init)\w*"
        r"|\bllama runner\b",
    ),
    (
        # MXNet's APIs and its GPU allocator ("pooled_storage_manager.h:107: cudaMalloc failed")
        # MXNet named in prose ("using native mxnet-mkl", "with gluon code") and its Module's
        # Speedometer ("Epoch[0] Batch [128]  Speed: 5276.20 samples/sec  accuracy=0.11",
        # "Epoch[0] Train-accuracy=0.29", "Epoch[0] Time cost=8.733")
        ("mx.", "gluon", "pooled_storage", "mxnet", "epoch["),
        r"\bmx\.(?:nd|sym|symbol|gluon|io|mod|init|autograd|context)\b"
        r"|\bgluon\.(?:nn|Trainer|loss)\b|\bpooled_storage_manager\b"
        r"|(?i:(?<![a-z])mxnet(?![a-z])|\bgluon\b)"
        r"|\bEpoch\[\d{1,6}\] (?:Batch \[\d{1,9}\][^\S\n]+Speed: |Train-\w|Validation-\w"
        r"|Time cost=)",
    ),
    # JAX's NumPy, Flax, and JAX named in prose ("I ran into this issue before with Jax 0.4.13")
    (("jnp.", "flax", "jax"), r"(?i)\bjnp\.\w|\bflax\b|\bjax\b"),
    # a network written with no framework at all ("a classification neural network using python
    # without any deep learning library", "from scratch in pure NumPy"): its bugs are its own
    (
        ("without", "numpy"),
        r"(?i)\bwithout[^\S\n]+(?:using[^\S\n]+)?(?:any[^\S\n]+)?"
        r"(?:deep[- ]learning|machine[- ]learning|ml|dl|neural[- ]network)[^\S\n]+"
        r"(?:librar(?:y|ies)|frameworks?|packages?)\b"
        r"|\b(?:pure|only|just)[^\S\n]+numpy\b|\bnumpy[^\S\n]+only\b",
    ),
    (
        # Darknet, YOLO's C framework: named ("train YOLOv3 using darknet", "./darknet detector
        # train", darkflow its TensorFlow port; not Darknet-53, the backbone PyTorch ports build,
        # nor their darknet.py), its annotation tool, and its training log ("6000: 4.695510,
        # 6.366718 avg loss, 0.000013 rate", "Region 82 Avg IOU:", "total_bbox = 923054,
        # rewritten_bbox = 3.99 %")
        ("darknet", "darkflow", "yolo_mark", " avg", "region ", "rewritten_bbox"),
        r"(?i)\bdark(?:net|flow)\b(?![-_ ]?\d|\.py\b)|\bYolo_mark\b"
        r"|(?m:^[^\S\n]*\d{1,9}: [-\d.na]{1,20}, [-\d.na]{1,20} avg(?: loss)?, "
        r"[\d.e-]{1,20} rate\b)"
        r"|\bRegion (?:\d{1,4} )?Avg \(?IOU: |\brewritten_bbox = ",
    ),
    (
        # Caffe (not Caffe2, PyTorch's): its name, its net files and its solver's messages, which
        # the parser reads without their glog prefix ("I0505 18:10:10.59 24343 solver.cpp:57] ")
        ("caffe", ".prototxt", "net output #", "solver scaffolding"),
        r"(?i)\bcaffe\b|\.prototxt\b|\b(?:Train|Test) net output #\d+:|\bSolver scaffolding done\b",
    ),
    (
        # MATLAB: its error lines ("Error using trainNetwork (line 184)", "Error in vl_simplenn
        # (line 300)") and its GPU arrays, named in its GPU errors ("use 'gpuDevice()'")
        ("(line ", "gpuarray", "gpudevice("),
        r"(?m)^[^\S\n]*Error (?:using|in) [\w./>]+(?<!\.py) \(line \d+\)[^\S\n]*$"
        r"|\bgpuArray\b|\bgpuDevice\(",
    ),
    (
        # the JVM's errors and frames (Python's "Exception in thread Thread-1:" is no cue)
        ("java",),
        r"(?i)\bjava\.(?:lang|io|util|nio)\.\w+|\bJava heap space\b|\([\w$]+\.java:\d+\)",
    ),
    (
        # an R session: its packages loaded or installed
        ("library(", "library (", "require(", "require (", "install.packages(", "biocmanager::"),
        r"(?im)^[^\S\n]*(?:>[^\S\n]*)?(?:library|require)[^\S\n]?\([\"']?[A-Za-z][\w.]{0,40}[\"']?\)"
        r"|\b(?:install\.packages|BiocManager::install)\(",
    ),
)
# PyTorch's own names, weighed against every cue above: a post that ports a Keras model to an
# nn.Module, or compares its run with TensorFlow's, is a PyTorch post (zero_grad and a .pth file
# are PyTorch's alone; Paddle has backward() and state_dict() too, but load_state_dict's failure
# in its own words, "Error(s) in loading state_dict for", is torch's)
_TORCH = (
    r"(?i)torch|\bnn\.Module\b|\blightning\b|zero_grad\(|\.pth\b"
    r"|Error\(s\) in loading state_dict for\b"
)


def other_framework(text: str) -> bool:
    """The text shows another framework's code or log, and nothing of PyTorch's."""
    # most PyTorch pastes name torch: _TORCH would find it, at once
    text = _without_env_prompts(text)
    return "torch" not in text and _other(text, text.lower())


# A shell prompt's environment, "(pytorch) PS E:\...>" or "(torch_env) user@host:~$": the name a
# user gave a conda environment, which may run another framework's script all the same
_ENV_PROMPT = (
    r"(?m)^[^\S\n]*\([\w.-]{0,40}torch[\w.-]{0,40}\)"
    r"(?=[^\S\n]+(?:PS[^\S\n]|[\w.-]+@|[A-Za-z]:\\|[~/$>]))"
)


def _without_env_prompts(text: str) -> str:
    return compile_cached(_ENV_PROMPT).sub("()", text) if "torch" in text else text


# Every framework but Keras' progress bar alone, which PyTorch loops imitate
_NAMED_FRAMEWORKS = tuple(f for f in _OTHER if f is not _KERAS_BAR)


def _other(
    text: str, lower: str, frameworks: tuple[tuple[tuple[str, ...], str], ...] = _OTHER
) -> bool:
    return (
        any(
            any(cue in lower for cue in cues) and compile_cached(pattern).search(text) is not None
            for cues, pattern in frameworks
        )
        and compile_cached(_TORCH).search(text) is None
    )


# Gradient-boosted trees and statistical fits, by their names and their logs: XGBoost's
# "[3]\ttrain-rmse:6.57\tvalidate-rmse:6.57" and "boosting round 4, 17.9 sec elapsed", LightGBM's
# "[LightGBM] [Warning]", scikit-learn's ConvergenceWarning, R's glm.fit and lme4 warnings ("Model
# failed to converge with max|grad| = ...").
_NOT_NEURAL = (
    r"(?im)\b(?:xgboost|lightgbm|catboost|XGB(?:Classifier|Regressor)|LGBM(?:Classifier|Regressor)"
    r"|statsmodels|lme4|glmer|glm\.fit|checkConv|ConvergenceWarning)\b|max\|grad\|"
    r"|^[^\S\n]*(?:\[[\d:]+\][^\S\n]*)?\[\d+\][^\S\n]+(?:train|valid\w*|eval|test)-[a-z][\w@]*:[-\d.]"
    r"|\bboosting round \d+"
    # an R session: its packages loaded or installed, its assignments and pipes; with no word of
    # a network (R's keras and neuralnet are named), a statistics or bioinformatics package
    r"|^[^\S\n]*(?:>[^\S\n]*)?(?:library|require)[^\S\n]?\([\"']?[A-Za-z][\w.]{0,40}[\"']?\)"
    r"|\b(?:install\.packages|BiocManager::install)\("
    r"|^[^\S\n]*(?:>[^\S\n]*)?[A-Za-z][\w.$]{0,40}[^\S\n]*<-[^\S\n]*[\w.]{1,40}\(|%>%"
)


# Every branch of _NOT_NEURAL holds one of these: a paste without any is read no further.
_NOT_NEURAL_CUES = (
    *("xgboost", "lightgbm", "catboost", "xgb", "lgbm", "statsmodels", "lme4", "glmer"),
    *("glm.fit", "checkconv", "convergencewarning", "max|grad|", "boosting round"),
    *("train-", "eval-", "test-", "valid-", "validate-", "validation_"),  # a boosting round's log
    *("library(", "library (", "require(", "require (", "install.packages(", "biocmanager::"),
    *("<-", "%>%"),  # R's
)


def no_neural_network(text: str) -> bool:
    """The text is about gradient-boosted trees or a statistical model, with no word of torch
    or of a network's layers."""
    return "torch" not in text and _not_neural(text, text.lower())


def _not_neural(text: str, lower: str) -> bool:
    return (
        any(cue in lower for cue in _NOT_NEURAL_CUES)
        and compile_cached(_TORCH).search(text) is None
        and compile_cached(_NOT_NEURAL).search(text) is not None
        and compile_cached(_NETWORK).search(text) is None
    )


_NETWORK = (
    r"(?i)\b(?:neural|network|layers?|epochs?|keras|tensorflow|lstm|cnn|transformer|neuralnet|nnet"
    r"|mxnet|h2o)\b"
)


@cache
def _cues() -> Any:
    """Every cue of both lists in one automaton: one pass over a paste that holds none (most of
    those that do not name torch). A pattern of the 69 cues took six times as long: re tries each
    alternative at each character."""
    return automaton(
        {cue: cue for cue in {*(c for cues, _ in _OTHER for c in cues), *_NOT_NEURAL_CUES}}
    )


def _any_cue(lower: str) -> bool:
    return next(iter(_cues().iter(lower)), None) is not None


# A program written in C, C++ or CUDA that printed the error itself: glibc's backtrace of its
# binary ("./bladebit_cuda(main+0x939)[0x55e98c7156b9]") or the check of NVIDIA's CUDA samples
# ("CUDA error at bandwidthTest.cu:255 code=35(cudaErrorInsufficientDriver) "cudaSetDevice(...)"").
# The CUDA runtime's messages it quotes ("CUDA driver version is insufficient for CUDA runtime
# version") are PyTorch's too, but with no Python in the paste and no word of torch the program is
# another one, whose fix is its own. A source file and line alone ("at diffvg/scene.cpp:35") is no
# sign: a PyTorch CUDA extension's bare error shows the same.
_NATIVE = (
    r"(?m)^[^\S\n]*[\w./-]{1,120}\([\w.]{0,200}\+0x[0-9a-f]{1,16}\)[^\S\n]*\[0x[0-9a-f]{1,16}\]"
    r"|\bCUDA error at [^\n]{1,200}? code=\d{1,4}\(cuda\w{1,60}\)"
)
_NATIVE_CUES = ("+0x", " code=")
# Python's marks: a traceback, a file of it named, or its interpreter run
# (ASCII word boundaries: "执行python ./scripts/my_train.py会报错" names both)
_PYTHON = r"(?ai)\.py\b|\.ipynb\b|\bTraceback\b|<ipython-input|\bpython[23]?\b|\bpip3?\b|\bconda\b"
# PyTorch's native names, which its C++ errors show without the word torch: a libtorch program's
# c10::Error, ATen's and the old TH/THC libraries' files ("..\aten\src\TH/generic/THTensor.cpp"),
# c10d's process groups ("ProcessGroupNCCL.cpp:260, unhandled cuda error"), c10's log lines
# ("[W reducer.cpp:313] Warning: Grad strides do not match") and enforce failures
_TORCH_NATIVE = (
    r"(?i)\bc10d?\b|\bat::|\baten\b|\bcaffe2\b|\bTH(?:C|CU?N?|S)?(?:Tensor|Storage|General|Blas|Cuda)"
    r"|\bProcessGroup\w{0,20}\.[ch]pp\b"
    r"|\[(?:[WEIF]|enforce fail at) [\w./-]{1,80}\.(?:cpp|cc):\d+\]"
)


def _native(text: str, lower: str) -> bool:
    return (
        any(cue in lower for cue in _NATIVE_CUES)
        and compile_cached(_NATIVE).search(text) is not None
        and compile_cached(_PYTHON).search(text) is None
        and compile_cached(_TORCH_NATIVE).search(text) is None
        and compile_cached(_TORCH).search(text) is None  # "PyTorch" named
    )


# Lua Torch (Torch7), PyTorch's ancestor, by the Lua interpreter's traceback ("luajit: ...lua:389:
# ... stack traceback:\n\t[C]: in function 'error'"): its paths name torch ("~/torch/install/
# share/lua/5.1/cutorch"), its errors are Lua's and its CUDA runtime's, never PyTorch's. Or by
# the position Lua puts before an error's message ("ClassNLLCriterion.lua:44: Assertion ...",
# "THNN.lua:110: ..."), which a post keeps when it flattens or cuts the traceback: in every
# earlier sample, each of the 42 posts with one was Lua Torch's.
_LUA = r"(?m)^[^\S\n]*stack traceback:[^\S\n]*$(?s:.{0,2000}?)\.lua:\d+:"
_LUA_POSITION = r"[\w-]\.lua:\d{1,6}: "  # the file's name ends it: no path to scan back over


def _lua(text: str) -> bool:
    if "Traceback (most recent" in text:
        return False
    return ("stack traceback:" in text and compile_cached(_LUA).search(text) is not None) or (
        ".lua:" in text and compile_cached(_LUA_POSITION).search(text) is not None
    )


def another_program(text: str, *, behaviour: bool = False) -> bool:
    """other_framework(text), or the error of a C, C++ or Lua program: an error entry's words
    retold beside it are that program's. For a training behaviour (`behaviour`), Keras' progress
    bar alone is no sign: PyTorch users' own loops print it too (torchkeras, pkbar)."""
    return _elsewhere(text, _NAMED_FRAMEWORKS if behaviour else _OTHER, statistics=False)


def foreign(text: str) -> bool:
    """other_framework(text) or no_neural_network(text), or a C, C++ or Lua program's error:
    asked of every paste whose error an entry fits, most of which name torch or no cue."""
    return _elsewhere(text, _OTHER, statistics=True)


def _elsewhere(
    text: str, frameworks: tuple[tuple[tuple[str, ...], str], ...], *, statistics: bool
) -> bool:
    """Another program wrote the text: Lua Torch, a native program, one of `frameworks`, or
    (`statistics`) boosted trees or a statistical fit. The text is lowered once, and one pass of
    the cue automaton ends it for a text that names none of them."""
    if _lua(text):
        return True
    text = _without_env_prompts(text)
    if "torch" in text:
        return False
    lower = text.lower()
    if _native(text, lower):
        return True
    if not _any_cue(lower):  # every framework's pattern needs one of its cues
        return False
    return _other(text, lower, frameworks) or (statistics and _not_neural(text, lower))
