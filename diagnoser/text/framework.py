"""Whether a paste visibly comes from another framework than PyTorch: TensorFlow's or Paddle's
log lines, imports of Keras, MindSpore or JAX, an R session's library() calls, and no word of
torch anywhere. An error entry explains a message PyTorch prints: retold in words beside another
framework's log ("显卡内存不够" under TensorFlow's device lines), or printed by it in
PyTorch's words (Paddle's "an illegal memory access was encountered at [/paddle/fluid/...]"), it
is that framework's error, with other causes and fixes. Training behaviours (a loss that does not
fall, a slow input pipeline) are the same in any framework of neural networks and stay answered;
not in gradient-boosted trees or a statistics package, whose rounds and fits have none of the
causes the entries give (learning rate, zero_grad, BatchNorm, DataLoader workers)."""

from __future__ import annotations

from ..knowledge.regex_cache import compile_cached

_OTHER = (
    r"(?im)^[^\S\n]*(?:import|from)[^\S\n]+(?:tensorflow|keras|mindspore|paddle|jax|mxnet)\b"
    r"|\b(?:tensorflow|mxnet)/(?:core|python|stream_executor|compiler)/"
    r"|(?:^|(?<=[`'\"]))(?:INFO|WARNING|ERROR):tensorflow:"  # a log line, or one quoted
    r"|\btf\.(?:keras|compat|data|function|Session|config|train|estimator)\b"
    r"|\b(?:mindspore|paddlepaddle)\b|\bpaddle::|/paddle/(?:fluid|phi)/"
    r"|^[^\S\n]*(?:>[^\S\n]*)?(?:library|require)\([A-Za-z][\w.]{0,40}\)"
)
_TORCH = r"(?i)torch|\bnn\.Module\b|\blightning\b"
# Every branch of _OTHER holds one of these: a paste without any is read no further (asked for
# every paste with an error an entry fits, the patterns would cost more than this look).
_CUES = (
    *("tensorflow", "keras", "mindspore", "paddle", "jax", "mxnet"),
    *("tf.", "library(", "require("),
)


def other_framework(text: str) -> bool:
    """The text shows another framework's code or log, and nothing of PyTorch's."""
    # most PyTorch pastes name torch: _TORCH would find it, at once
    return "torch" not in text and _other(text, text.lower())


def _other(text: str, lower: str) -> bool:
    return (
        any(cue in lower for cue in _CUES)
        and compile_cached(_TORCH).search(text) is None
        and compile_cached(_OTHER).search(text) is not None
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
)


# Every branch of _NOT_NEURAL holds one of these: a paste without any is read no further.
_NOT_NEURAL_CUES = (
    *("xgboost", "lightgbm", "catboost", "xgb", "lgbm", "statsmodels", "lme4", "glmer"),
    *("glm.fit", "checkconv", "convergencewarning", "max|grad|", "boosting round"),
    *("train-", "eval-", "test-", "valid-", "validate-", "validation_"),  # a boosting round's log
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


_NETWORK = r"(?i)\b(?:neural|network|layers?|epochs?|keras|tensorflow|lstm|cnn|transformer)\b"


def foreign(text: str) -> bool:
    """other_framework(text) or no_neural_network(text), the text lowered once: asked of every
    paste whose error an entry fits, most of which name torch or neither cue list."""
    if "torch" in text:
        return False
    lower = text.lower()
    return _other(text, lower) or _not_neural(text, lower)
