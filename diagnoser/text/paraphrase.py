"""An error retold in the user's own Chinese words ("报错说两个矩阵形状不能相乘"): the entries
whose phrases say the same things, in other words and another order.

Each phrase of an error entry (en and zh) is reduced to the concepts it names, through a small
lexicon of the words users and our phrases use for them (形状 / 尺寸 / shape are one concept;
不匹配 / 对不上 / 不一致 another). A sentence that says it is an error (报错, 提示, error…)
and names every concept of some phrase, two at least, names that phrase's entry; of several
entries, the one whose matched phrases together name the most concepts, and none when several
tie. English is read so only in a short one-line description that says it is about an error
("when loading weight, mismatch error occur"): longer English is a log or code.

One error is retold by what fixed it rather than by its concepts: a newer PyTorch said to have
made it work ("after changing to 1.5.0, it worked") is the entry whose phrase names the installed
torch too old.
"""

from __future__ import annotations

import re
from functools import cache

from ..knowledge.index import Index
from ..knowledge.regex_cache import compile_cached
from ..knowledge.substrings import automaton
from .symptoms import compact, fold

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs a start-up milliseconds
    from typing import Any

# concept -> the words for it (lower case; ASCII ones count as whole words or their plurals)
LEXICON: dict[str, tuple[str, ...]] = {
    "shape": ("形状", "尺寸", "shape", "size", "大小"),
    "dim": ("维度", "维数", "dim", "dimension"),
    "mismatch": (
        "不匹配",
        "对不上",
        "不一致",
        "不一样",
        "不相同",
        "不同",
        "不符",
        "不对",
        "不在同一",
        "mismatch",
        "mismatches",
        "inconsistent",
        "inconsistency",
        "match",
        "same",
        "不兼容",
        "incompatible",
        "not compatible",
    ),
    "cannot": ("不能", "无法", "不可以", "没法", "cannot", "can't", "unable"),
    "multiply": ("相乘", "乘法", "矩阵乘", "matmul", "multiplied", "multiply"),
    "matrix": ("矩阵", "mat1", "mat2", "matrix"),
    "device": ("设备", "device"),
    "dtype": ("数据类型", "dtype", "标量类型", "scalar type", "类型", "type"),
    "index": ("索引", "下标", "index", "indices"),
    "out-of-range": ("越界", "超出范围", "超出", "超过", "out of range", "out of bounds"),
    "grad": ("梯度", "grad", "gradient", "requires_grad", "求导"),
    "inplace": ("原地", "就地", "inplace", "in-place"),
    "modified": ("修改", "改变", "modified"),
    "backward": ("反向传播", "反向", "backward"),
    "twice": ("两次", "第二次", "重复", "twice", "second time"),
    # 显存 is the GPU's memory, 内存 as often host RAM: a sentence that says 显存 is about the GPU,
    # one that says 内存 may be about either ("内存不足" stays shared with the host-memory errors)
    "gpu-memory": ("显存", "gpu memory", "gpu内存", "cuda memory", "cuda内存", "vram"),
    "memory": ("内存", "memory"),
    "not-enough": (
        "不足",
        "不够",
        "爆了",
        "溢出",
        "占满",
        "满了",
        "撑爆",
        "爆掉",
        "爆满",
        "out of memory",
        "oom",
        "not enough",
        "insufficient",
    ),
    "worker": ("worker", "工作进程"),
    # a child process is a DataLoader worker only where the sentence says so: in multi-GPU
    # training ("设置多卡时，子进程会被kill") the children are the launcher's
    "subprocess": ("子进程", "subprocess"),
    "killed": ("被杀", "被kill", "kill", "killed", "意外退出", "exited unexpectedly"),
    "dataloader": ("dataloader", "数据加载"),
    "load": ("加载", "载入", "load", "loading", "loaded"),
    "weights": (
        *("权重", "state_dict", "state dict", "statedict", "checkpoint", "预训练", "模型参数"),
        *("weight", "pretrained"),
    ),
    "keys": ("键", "key", "keys"),
    "missing": ("缺少", "缺失", "missing"),
    "label": ("标签", "target", "label"),
    "class": ("类别", "class"),
    "embedding": ("embedding", "嵌入", "词表", "vocab"),
    "channel": ("通道", "channel"),
    "batch": ("batch", "批次", "批量"),
    # one concept, not "batch" and "size": "batch size 不匹配" is not "形状不匹配"
    "batch-size": ("batch size", "batch-size", "batch_size", "batchsize", "批大小", "批量大小"),
    "scalar": ("标量", "scalar", "item"),
    "numpy": ("numpy",),
    # "cast": result-type-cast's "can't be cast" names a conversion, not a type alone
    "convert": ("转换", "转成", "转为", "convert", "cast"),
    "contiguous": ("连续", "contiguous"),
    # what "负 stride 无法转换" is about: without it, any "不能转换" (a model conversion) reads so
    "stride": ("stride", "步长"),
    "view": ("view", "reshape"),
    "port": ("端口", "port"),
    "nccl": ("nccl",),
    "timeout": ("超时", "timeout", "timed out"),
    "in-use": ("被占用", "占用", "in use"),
    "driver": ("驱动", "driver"),
    "too-old": ("太旧", "过低", "太低", "too old"),
    # what cannot be done is part of what a phrase says: "cannot save checkpoint" is no
    # "cannot" with any weights ("无法使用预训练模型", "提示无法读取 checkpoint"), and a save
    # cut short is no save and load of any checkpoint
    "save": ("保存", "save", "saving"),
    "interrupted": ("中断", "interrupted", "断电"),
    "pickle": ("pickle", "序列化"),
    "broadcast": ("广播", "broadcast"),
    "nan": ("nan",),
    "loss": ("loss", "损失"),
    "leaf": ("叶子", "leaf"),
    # a question's tag ("路径对不对", is the path right?), no "不对" of a mismatch: the longer
    # word found at the same place hides the shorter one
    "asked": ("对不对",),
}
# The words that say the sentence is about an error, not a training behaviour; memory that
# overflows ("溢出显存", "显存爆满") has failed, where memory taken in full ("显存占满") may be the
# cache doing its work.
_ERROR_CUES = (
    *("报错", "错误", "提示", "异常", "出错", "报了", "error", "exception", "失败"),
    *("溢出", "爆满"),
)
# An English description is a title-like line ("when loading weight, mismatch error occur"); the
# cue is a whole word ("terror" says nothing); "issue" and "problem" are said of behaviours too
# ("different batch size gives different loss, is it a problem?"). A step said to be impossible
# is a failure too: "I am not able to load the model state dict because of missing keys".
_EN_ERROR_CUE = compile_cached(
    r"\b(?:errors?|exceptions?|fail(?:s|ed|ure)?|mismatch(?:es|ed)?)\b"
    r"|\b(?:(?:am|is|are|was|were) not able|unable|can(?:no|'|’)t|could(?:n'|n’| no)t) to "
    r"(?:load|run|train|start|resume|save|import)\b"
)
_EN_MAX_LENGTH = 200
# A post's title and a short body, each line a description of its own: "Checkpoint loading error"
# above "... failed to load. Error parameters did not match." Longer English is a log or code,
# but for its lines of prose that tell an error ("I keep getting this error, the matrices are the
# wrong sizes and i can't multiply them."): words and spaces, hardly any code or log characters.
_EN_MAX_LINES = 4
# An error reported, not any "error" ("the same model calculates different errors" is a metric).
_PROSE_LINE = compile_cached(r"[a-z][a-z'’,;!?. -]{38,198}")
# A command the user ran, whose Chinese is an argument (a TTS prompt, a path): not their words.
# Lower case, as symptoms.normalise leaves it.
_COMMAND_LINE = compile_cached(
    r"^[ \t]*(?:[$>#][ \t]*)?(?:\w+=\S+[ \t]+)*"
    r"(?:python3?|pip3?|torchrun|accelerate|deepspeed|bash|sh)(?:[ \t]+-m)?"
    r"[ \t]+\S+(?:[ \t]+[^\s-]\S*)*[ \t]+--?\w"
)
# A comment's start in a line of code: `  # ` (not the `#` of a URL's anchor)
_COMMENT = compile_cached(r"\s#\s")
_MIN_PROSE_WORDS = 8
_ERROR_REPORTED = compile_cached(
    r"\b(?:get|gets|getting|got|throws?|threw|thrown|raises?|raised|gives?|gave|giving|hits?|"
    r"hitting|encounter(?:s|ed|ing)?|(?:run|runs|ran|running) into|see|seeing|saw)"
    r"(?: [a-z']+){0,3}? (?:errors?|exceptions?)\b"
    r"|\b(?:errors?|exceptions?) (?:occurs?|occurred|happens?|happened|appears?|appeared|"
    r"(?:is|was) (?:raised|thrown))\b"
)
_MIN_CONCEPTS = 2
_CHINESE = compile_cached(r"[\u4e00-\u9fff]")


@cache
def _phrased(pattern: str, index: Index) -> set[str]:
    """The error entries a phrase of their own matches: what a sentence told by one of the rules
    below (a torch too old, CUDA unavailable, data left on the CPU, a file cut short) answers."""
    own = compile_cached(pattern)
    return {
        e.id
        for e in index.entries
        if e.kind == "error" and any(own.search(fold(p)) for p in e.phrases["en"] + e.phrases["zh"])
    }


def paraphrased_entries(sentence: str, index: Index) -> set[str]:
    """The error entries the sentence retells (see the module's docstring); lower case, as
    symptoms.normalise leaves it."""
    if newer_torch_worked(sentence):
        return _phrased(_TOO_OLD_PHRASE, index)
    if cuda_said_unavailable(sentence):
        return _phrased(_IS_AVAILABLE_FALSE, index)
    if left_on_the_cpu(sentence):
        return _phrased(_ON_CPU_PHRASE, index)
    if checkpoint_said_cut(sentence) or checkpoint_said_corrupted(sentence):
        return _phrased(_TRUNCATED_PHRASE, index)
    covered = _covered(sentence, index)
    most = max(map(len, covered.values()), default=0)
    tied = {entry_id for entry_id, found in covered.items() if len(found) == most}
    # Several entries retold equally well is a sentence that does not say which error it was
    # ("DataLoader 多线程就出错" fits a worker's exception, shared memory and CUDA in a fork
    # alike): answering one of them first would be a guess.
    return tied if len(tied) == 1 else set()


def retold_beyond(sentence: str, index: Index, named: set[str]) -> set[str]:
    """The entry the sentence retells when it says more of it than of every error entry it names
    word for word: "权重文件加载到模型中，导致了维度不匹配的错误" says shape-matmul's "维度不匹配",
    but loading weights too, which only state-dict-mismatch's phrases name with a mismatch."""
    retold = paraphrased_entries(sentence, index)
    if (
        not retold
        or retold <= named
        or any(index.entry(index.positions[n]).kind != "error" for n in named)
    ):
        return set()
    covered = _covered(sentence, index)
    (entry_id,) = retold
    if entry_id not in covered:
        return (
            set()
        )  # retold by what it says happened (a newer torch, CUDA unavailable), no concept
    most = len(covered[entry_id])
    return retold if all(len(covered.get(n, ())) < most for n in named) else set()


def _covered(sentence: str, index: Index) -> dict[str, frozenset[str]]:
    """Entry id -> the concepts its phrases that the sentence retells name together, for the
    entries with such a phrase; empty when the sentence is not retelling an error."""
    uncued = False  # Chinese with no word of an error (read with more care, below)
    strict = False  # an English post's lines name two concepts by chance more often (below)
    if _CHINESE.search(sentence) is None:
        text, strict = _english_description(sentence)
    else:
        # The retelling is the Chinese the user wrote: a line with no Chinese in it is a log, a
        # traceback or code, whose column names ("cls  targets  img_size") say no error.
        told = [
            line
            for line in sentence.splitlines()
            if _CHINESE.search(line) and not _COMMAND_LINE.match(line) and not _commented_code(line)
        ]
        text = compact("\n".join(told))
        uncued = not any(cue in text for cue in _ERROR_CUES)
    if not text:
        return {}
    said = concepts(text)
    # An entry counts the concepts its matched phrases name together: "权重加载模型不匹配" is
    # "权重加载失败" and "权重和模型不匹配" at once, state-dict-mismatch's, where every entry
    # about checkpoints has a phrase naming loading weights alone.
    covered: dict[str, frozenset[str]] = {}
    for entry_id, needed in _phrase_concepts(index):
        if len(needed) >= _MIN_CONCEPTS and needed <= said:
            covered[entry_id] = covered.get(entry_id, frozenset()) | needed
    if uncued:
        # with no word of an error, a mismatch said of three things at once still is one:
        # "权重加载模型不匹配问题", "加载预训练模型时出现了 权重不匹配"; two ("权重不匹配", maybe
        # a loss's weights) or no mismatch ("两个矩阵形状不能相乘是什么意思", a question) are not
        covered = {
            e: found
            for e, found in covered.items()
            if len(found) > _MIN_CONCEPTS and "mismatch" in found
        }
    elif strict:
        # an English title and body say more words, and name two concepts by chance more often
        # ("all buffers must be on the same device error", tinygrad's own check): one concept more
        covered = {e: found for e, found in covered.items() if len(found) > _MIN_CONCEPTS}
    return covered


def _commented_code(line: str) -> bool:
    """A line of code whose Chinese is only its comment (`'type': 'DataLoader',  # 使用torch
    dataloader只需要改为 DataLoader`, a project's config): the project's words, not the user's."""
    comment = _COMMENT.search(line)
    if comment is None:
        return False
    code = line[: comment.start()]
    return _CHINESE.search(code) is None and any(c in code for c in "=:,([{")


def _english_description(sentence: str) -> tuple[str, bool]:
    """The sentence compacted when it is one short line, or a post's title, a blank line and a
    short body, of which a line says it is about an error: the title may say only "Error when
    loading pretrained weights" and the body what did not match. Other English over several lines
    is a log or code ("epoch 3 ...\nerror count 0"), whose words name concepts by chance: of it,
    only the lines of prose that report an error. With whether the text is more than
    one line (its concepts are then read with more care), or ("", False)."""
    raw = sentence.strip().splitlines()
    lines = [line.strip() for line in raw if line.strip()]
    titled = not (len(raw) > 1 and raw[1].strip())  # else no title above a blank line: a log's
    if titled and len(lines) <= _EN_MAX_LINES and all(len(ln) <= _EN_MAX_LENGTH for ln in lines):
        if not any(_EN_ERROR_CUE.search(line) for line in lines):
            return "", False
        return "\n".join(map(compact, lines)), len(lines) > 1
    told = [
        compact(line)
        for line in lines
        if _PROSE_LINE.fullmatch(line)
        and len(line.split()) >= _MIN_PROSE_WORDS
        and _ERROR_REPORTED.search(line)
    ]
    return "\n".join(told), True


def concepts(text: str) -> frozenset[str]:
    """The concepts the (compacted, lower-case) text names; a word inside a longer one found at
    the same place ("size" in "batch size") does not count."""
    spans = [
        (end + 1 - len(word), end + 1, concept)
        for end, (word, concept) in _lexicon_automaton().iter(text)
        if _whole(text, end + 1 - len(word), end + 1) and not _negated(text, end + 1 - len(word))
    ]
    return frozenset(
        concept
        for start, end, concept in spans
        if not any(s <= start and end <= e and (s, e) != (start, end) for s, e, _ in spans)
    )


# A Chinese word right after 没(有) or 未 is said not to have happened: "内存和显存都没有占满" tells
# memory that is not full, no shortage of it. (不 is left out: it makes a word's opposite, and
# "不连续" is itself what a non-contiguous view is said to be.)
_NEGATORS = ("没有", "没", "未")


def _negated(text: str, start: int) -> bool:
    return not text[start : start + 1].isascii() and text[max(0, start - 2) : start].endswith(
        _NEGATORS
    )


# Chinese words that hold a concept's character and mean something else: "关键" is "crucial"
# ("缺少关键代码", a missing import), "键盘" a keyboard, no dict's key
_OTHER_WORDS = {"键": ("关键", "键盘", "按键", "快捷键")}


def _whole(text: str, start: int, end: int) -> bool:
    """An ASCII word is not part of a longer one ("size" is not in "resize"); a plural counts;
    a Chinese word is not part of a compound that means something else."""
    word = text[start:end]
    if not word[0].isascii():
        return not any(
            text.startswith(other, start - other.index(word))
            for other in _OTHER_WORDS.get(word, ())
            if start >= other.index(word)
        )
    before = text[start - 1] if start else " "
    after = text[end : end + 2] if end < len(text) else " "
    if after[:1] == "s" and not after[1:2].isalnum():
        after = " "  # "shapes", "keys"
    return not (
        (before.isascii() and before.isalnum()) or (after[:1].isascii() and after[:1].isalnum())
    )


@cache
def _lexicon_automaton() -> Any:
    return automaton(
        {
            compact(word): (compact(word), concept)
            for concept, words in LEXICON.items()
            for word in words
        }
    )


@cache
def _phrase_concepts(index: Index) -> tuple[tuple[str, frozenset[str]], ...]:
    """(entry id, the concepts of one of its phrases), for every phrase of every error entry."""
    pairs = index.derived("phrase-concepts", lambda: _compute_phrase_concepts(index))
    return tuple((entry_id, frozenset(found)) for entry_id, found in pairs)


def _compute_phrase_concepts(index: Index) -> list[tuple[str, list[str]]]:
    return [
        (e.id, sorted(concepts(compact(fold(p)))))
        for e in index.entries
        if e.kind == "error"
        for p in e.phrases["en"] + e.phrases["zh"]
    ]


# A newer PyTorch said to have made it work is the installed one said to be too old, in other
# words: "I have installed pytorch 1.4.0 ... after changing to 1.5.0, it worked", "upgrading
# pytorch solved it", "升级 torch 之后就好了". An upgrade says "newer" itself; a change or a switch
# does only when its version is above the one named before (going back to torch 1.0 to make old
# code run is the opposite). The success must come after the new version, unnegated: "it worked
# with 1.4, after upgrading to 1.5 it fails" is a regression, no old torch.
_VERSION = r"(\d{1,2})\.(\d{1,2})"
_INSTALLED = compile_cached(
    r"(?<![a-z])(?:py)?torch(?![a-z])[^\n.!?。！？]{0,25}?(?<![\d.])" + _VERSION
)
_UPGRADE = r"(?:(?<![a-z])(?:upgrad[a-z]*|updat[a-z]*)|升级|更新|装了?新版)"
_CHANGE = (
    r"(?:(?<![a-z])(?:chang[a-z]*|switch[a-z]*|mov[a-z]*|instal[a-z]*|us(?:e|ed|ing))"
    r"|换成|换到|换了|改成|改为|改用|装了?)"
)
_TO_VERSION = compile_cached(
    rf"({_UPGRADE}|{_CHANGE})(?:[^\S\n]*(?:to|到|成|为|the|a|newer|latest|version|(?:py)?torch|"
    rf"==|=|v|版本)(?![a-z])){{0,4}}[^\S\n]*(?<![\d.]){_VERSION}"
)
_UPGRADED_TORCH = compile_cached(
    rf"{_UPGRADE}[^\S\n]*(?:(?:the|my|to|a|newer|latest|version|了|一下|到|新版本?)[^\S\n]*){{0,4}}"
    r"(?<![a-z])(?:py)?torch(?![a-z])"
)
_TORCH = compile_cached(r"(?<![a-z])(?:py)?torch(?![a-z])")
_WORKED = compile_cached(
    r"(?<!not )(?<!n't )(?<!n’t )(?<!never )\b(?:it\s+)?(?:works?|worked|working|solved|fixed|"
    r"resolved|runs|ran)\b|(?<![不没])(?:解决了?|好了|可以了|正常了|成功了|跑通了?|能跑了?)"
)


def newer_torch_worked(sentence: str) -> bool:
    """The sentence says a newer PyTorch than the one installed made it work (see above)."""
    if "torch" not in sentence:
        return False  # each way below names torch: the installed version, or beside the verb
    for line in sentence.splitlines():
        if "torch" not in line:
            continue
        for to in _TO_VERSION.finditer(line):
            after = line[to.end() : to.end() + 60]
            if not _WORKED.search(after):
                continue
            new = (int(to.group(2)), int(to.group(3)))
            before = _INSTALLED.search(line, 0, to.start())
            old = (int(before.group(1)), int(before.group(2))) if before else None
            if re.fullmatch(_UPGRADE, to.group(1)) and (old is None or new > old):
                # the upgrade is torch's: a version of it named before, or torch beside the verb
                near = line[max(0, to.start() - 15) : to.end()]
                if before or _TORCH.search(near):
                    return True
            elif old is not None and new > old:
                return True
        for up in _UPGRADED_TORCH.finditer(line):
            if _WORKED.search(line[up.end() : up.end() + 60]):
                return True
    return False


# what an entry's own phrase says of a torch too old
_TOO_OLD_PHRASE = r"(?:py)?torch[^\n]{0,20}?(?:too old|太旧|太低|过低)"


# CUDA said to be unusable in the user's words rather than torch's: "torch.cuda.is_available()
# returns False", "is_available() is false", "torch.cuda.is_available()=False", "CUDA isn't
# available", "is_available()返回False", "CUDA 不可用". A result of True, or the call inside code
# ("cuda = True if torch.cuda.is_available else False"), says nothing of the kind; GPUs said not
# to be seen or available ("torch cannot see the gpu", "no CUDA GPUs are available") are
# no-cuda-gpus's own phrases: a machine whose GPU is hidden or absent.
_IS_AVAILABLE_FALSE = (
    r"\bis_?\s?available\b(?:\s*\(\s*\))?[)`'\"]*\s*(?:(?:is|returns?|returning|returned|was|"
    r"still|gives?|shows?|outputs?|prints?|which|that|it)\s+|[=:]\s*){1,4}[`'\"]?false\b"
    r"|is_?available\S{0,4}\s*(?:返回|输出|显示|为|是|=)\s*false"
)
_CUDA_UNAVAILABLE = compile_cached(
    _IS_AVAILABLE_FALSE + r"|\bcuda\s+(?:is\s+not|isn['’]t|not|is\s+un)\s*available\b"
    r"|(?:cuda|gpu)\s*不可用"
)


def cuda_said_unavailable(sentence: str) -> bool:
    """The sentence says torch cannot use CUDA on this machine (see above)."""
    return ("avail" in sentence or "torch" in sentence or "不可用" in sentence) and (
        _CUDA_UNAVAILABLE.search(sentence) is not None
    )


# An error retold by its fix, a tensor the user forgot to put on the GPU: "用GPU推理的时候会出错 ...
# 原来是忘记把那个feat_length 用cuda加载了", "I forgot to move the labels to the GPU", "the mask
# wasn't moved to cuda". Only beside an error said: forgetting the model on the CPU without one
# is a slow run. The Chinese says it was forgotten (忘记/忘了): "没有把模型加载到gpu上" is as often
# a question about a model.cuda() that did nothing, with no error at all.
_LEFT_ON_CPU = compile_cached(
    r"(?:忘记|忘了)把?[^，。,;；\n]{0,30}?(?:放到|放在|移到|转到|搬到|加载到|送到|放进|用|\.to\(|\.cuda\()"
    r"\s{0,2}(?:cuda|gpu|显卡|显存|device)"
    r"|\bforg[eo]t(?:ten)? to (?:move|put|send|transfer|load|copy|cast)\b[^.\n]{0,40}?"
    r"\b(?:to|on|onto|into) (?:the )?(?:gpu|cuda|device)\b"
    r"|\bforg[eo]t(?:ten)? (?:to (?:call|add) )?(?:the )?[`'\"]?\.(?:cuda|to)\("
    r"|\b(?:was|were|is|are)(?: not|n['’]t) (?:moved|put|sent|transferred|loaded) (?:to|on|onto) "
    r"(?:the )?(?:gpu|cuda)\b"
)


def left_on_the_cpu(sentence: str) -> bool:
    """The sentence says an error came from a tensor left off the GPU (see above)."""
    if not ("忘" in sentence or "forg" in sentence or " not " in sentence or "n't" in sentence):
        return False
    said_error = any(cue in sentence for cue in _ERROR_CUES) or _EN_ERROR_CUE.search(sentence)
    return bool(said_error) and _LEFT_ON_CPU.search(sentence) is not None


# what an entry's own phrase says of the model on the GPU and the data on the CPU
_ON_CPU_PHRASE = r"\bon (?:the )?gpu\b[^\n]{0,20}?\bon (?:the )?cpu\b"


# A load that failed, retold by the file's size: "the D_XXX file was 10 times smaller than the
# previous checkpoints", "My checkpoint files are only about 100MB, but it looks like they should
# be closer to 350MB", "the weight file exists but is 0 bytes", "权重文件存在但大小为 0",
# "比之前的小了很多". A file cut short by a killed save or an interrupted download.
_CUT_SHORT = compile_cached(
    r"\b(?:files?|checkpoints?|ckpts?|weights?|models?)\b[^.\n]{0,60}?(?:"
    r"\b(?:was|is|were|are)(?: only)? (?:\d+ times |much |way |a lot |far )?smaller than\b"
    r"|\b(?:was|is|were|are)(?: only)? 0 ?(?:bytes|b|kb)\b"
    r"|\bexists? but (?:is|was) (?:empty|\*{0,2}0 bytes)"
    r"|\bdownloaded (?:only )?partially\b"
    r"|\b(?:are|is|was|were) only (?:about )?\d+(?:\.\d+)? ?[kmg]i?b\b,? but "
    r"[^.\n]{0,30}?\bshould be\b)"
    r"|(?:文件|权重|模型|checkpoint|ckpt|pth)[^，。；,;\n]{0,30}?(?:"
    r"比[^，。；,;\n]{0,15}?小(?:了)?(?:很多|\d+倍|几倍|十倍|一个数量级)"
    r"|大小(?:为|是|只有)\s*0|只有\s*\d+(?:\.\d+)?\s*[km]?b\b)"
)
_LOAD_FAILED = compile_cached(
    r"(?:\bload(?:ing|ed)?\b|加载|载入)[^\n]{0,80}?(?:\berror\b|\bfail|报错|失败|出错)"
    r"|\bfail(?:ed|s)? to load\b|\berror (?:when |while )?loading\b"
)


def checkpoint_said_cut(sentence: str) -> bool:
    """The sentence tells a failed load and a file smaller than it should be (see above)."""
    if not ("load" in sentence or "加载" in sentence or "载入" in sentence):
        return False  # every branch of _LOAD_FAILED holds one of them
    return _LOAD_FAILED.search(sentence) is not None and _CUT_SHORT.search(sentence) is not None


# A checkpoint said to be corrupted ("the pre-train model is corrupted", "权重文件损坏了"): the
# file's own word, not a dataset's or an image's ("ignoring corrupt image/label")
_CORRUPTED = compile_cached(
    r"\b(?:checkpoints?|ckpts?|pth|weights?|weight files?|pre-?train(?:ed)?(?: models?| weights?)?"
    r"|model (?:files?|weights?))\b[^.\n]{0,20}?\b(?:is|are|was|were|seems?(?: to be)?|might be"
    r"|may be|looks?|got|gets|became|being|(?:has|have) been)(?: [a-z]+)? corrupt(?:ed)?\b"
    r"|\bcorrupt(?:ed)? (?:checkpoints?|ckpts?|pth|weights?|weight files?|pre-?trained models?"
    r"|model files?)\b"
    r"|(?:权重|预训练模型|模型文件|checkpoint|ckpt|pth)[^，。；,;\n]{0,10}?(?:已经)?(?:损坏|坏了)"
)


def checkpoint_said_corrupted(sentence: str) -> bool:
    """The sentence says the weights file itself is corrupted (see above)."""
    if "corrupt" not in sentence and "损坏" not in sentence and "坏了" not in sentence:
        return False
    return _CORRUPTED.search(sentence) is not None


# what an entry's own phrase says of a file cut short
_TRUNCATED_PHRASE = r"\btruncated\b|\bincomplete\b|不完整"
