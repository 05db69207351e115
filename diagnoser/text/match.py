"""Map the errors found in a text to knowledge-base entries, best first, or to nothing.

Signatures first: a regex hit on the message is precise and carries the values worth quoting.
Then, for an error no signature recognised, rapidfuzz compares its masked message with every
entry's masked examples, so a wording no regex foresaw still finds its family, with a lower score.
Below THRESHOLD nothing is reported: a wrong confident answer is worse than none.
"""

from __future__ import annotations

import bisect
import itertools
import re
from functools import cache

from ..knowledge.index import Entry, FrameSignature, Index, Signature
from ..knowledge.newer_names import newer
from ..knowledge.records import dataclass, field, replace
from ..knowledge.regex_cache import compile_cached
from .framework import another_program, no_neural_network
from .framework import foreign as from_another_framework
from .paraphrase import paraphrased_entries, retold_beyond
from .parse import MAX_MESSAGE, Error, Frame, Trace, parse
from .sentence import described_symptoms, named_entries, spaced_apart
from .symptoms import compact, detect, fold, learning, normalise, shown_otherwise
from .training_log import read as read_training_log

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs a start-up milliseconds
    from collections.abc import Iterable, Iterator
    from typing import Any

    from ..knowledge.source_tier import Location

THRESHOLD = 60
# How far a signature hit falls when the printed exception type is not one the signature lists.
_TYPE_MISMATCH_PENALTY = 20
# Fuzzy scores are capped below any signature hit, and need a close resemblance to count.
_FUZZY_CAP = 85
_FUZZY_MIN_SIMILARITY = 82
# A message cut short (_cut_short_matches): its start must be this long and leave this much of
# the example out; below any whole message that resembles an example.
_CUT_MIN_LENGTH = 30
_CUT_MIN_WORDS = 5
_CUT_MIN_LEFT = 8
_CUT_SCORE = 70
# An error that is not the root (a wrapper, an earlier error in a long log) ranks a little lower.
_NOT_ROOT_FACTOR = 0.9
_MAX_ERRORS = 200
# A traceback cut off before its message, recognised by the library frames it went through.
_FRAME_SCORE = 75
# A sentence names a problem less surely than a log shows it. A behaviour it describes (a
# symptom's patterns: "memory grows every iteration until OOM") is its subject, ahead of an error it
# merely names (an entry's phrases, or an error message quoted in it).
_PHRASE_SCORE = 85
_NAMED_SCORE = 84
# An error retold in other words (paraphrase.py): below any phrase said word for word.
_PARAPHRASE_SCORE = 80
# A symptom described only in the words of an error the sentence names (_told_by_an_error):
# below that error.
_TOLD_SCORE = _NAMED_SCORE - 1
_MAX_SENTENCE = 5000
# A symptom named only as a guess the user asks about ("Is my model overfitting.", "does that
# mean the model is not learning?", "是不是过拟合了") is what they fear, not what they saw: below
# anything the text reports (a phrase, a paraphrase), still an answer when nothing else is said
# (but for a post about poor results in general: _BAD_RESULTS).
_GUESSED_SCORE = 78
# A numbered error code ("cuda runtime error (9)", "error=30", "error code 700") names the error
# itself, not a value: masking turns it into a number like any other, so the fuzzy stage
# compares the codes apart and never lets one code's example stand for another code's message.
# (bounded spaces: `\s*:?\s*` over a long run of blanks backtracks quadratically)
_ERROR_CODE = r"(?i)\berror\s{0,3}(?:\(\s{0,3}|=\s{0,3}|code\s{0,3}:?\s{0,3})(\d{1,5})\b"
# What a sentence says is not so: "going well without NaN loss value", "it is not because it is
# out of memory", "I am not talking about the classic vanishing gradients", "不是因为显存不够".
# The words after the cue are no symptom described: they are blanked before phrases and patterns
# are looked for. "without" takes one word and its article or a generic noun after it ("without
# any NaN loss"; "training without dropout overfits" still says overfits); an action left out is
# no denial but a cause ("without model.eval()", "without calling zero_grad"), so code and verbs
# in -ing stay. A denied cause runs to the end of its clause. Neither "not" nor "没有" alone is a
# cue: "the loss is not decreasing" and "loss 没有下降" are the symptom.
_UNSAID = (
    r"(?i)\bwithout(?:[^\S\n]+(?:any|a|an|the))?[^\S\n]+(?![^\s]{0,40}?[._(])(?![a-z]{1,30}ing\b)"
    r"[^\s.,;:!?()]{1,30}"
    r"(?:[^\S\n]+(?:loss|values?|errors?|issues?|problems?|warnings?)\b)?"
    r"|\b(?:not|isn't|wasn't)\s+(?:because|due to|caused by|related to|(?:talking )?about)\b"
    r"[^\n.,;!?]{0,80}"
    r"|(?:不是因为|而不是)[^\n。，；！？,.;!?]{0,30}"
    # an opinion that it is not so ("I don't think it's overfitting", "应该不至于涉及过拟合的问题")
    r"|\bi[^\S\n]+(?:don[’']?t|do[^\S\n]+not)[^\S\n]+(?:think|believe)\b[^\n.,;!?]{0,80}"
    r"|(?:不至于|不太可能是?|应该不是|不像是)[^\n。，；！？,.;!?]{0,30}"
    # asking whether it would happen is no report that it did ("构造数据的时候，会不会出现内存不够的
    # 问题？"); a guess at the cause of what did happen ("会不会是显存不够") is left to be read
    r"|会不会(?:出现|发生|有)[^\n。，；！？,.;!?]{0,30}"
    # a problem named as what a measure is for ("to prevent overfitting I added dropout", "the
    # curve can still be used to identify overfitting", "为了防止过拟合") is no report that it
    # happens; asking how to prevent it may well be ("how to prevent overfitting?"), so not after
    # "how"/"如何"
    r"|(?:\bto(?<!\bhow to)(?<!\bway to)(?<!\bways to)|\bfor)[^\S\n]+"
    r"(?:avoid|prevent|identify|detect|combat|mitigate|counter)(?:ing)?"
    r"(?:[^\S\n]+(?:the|any|an?))?(?:[^\S\n]+[^\s.,;:!?()]{1,30}){1,2}"
    r"|(?:为了|以)(?:防止|避免|预防|免|防)[^\n。，；！？,.;!?]{0,12}"
    # said without 为了 ("在避免训练过程中出现过拟合情况", "为随机生成K防止过拟合么"), except
    # asked how ("如何避免过拟合") or failed ("无法避免", "没能防止")
    r"|(?<!如何)(?<!怎么)(?<!怎样)(?<![能法])(?:防止|避免|预防)[^\n。，；！？,.;!?]{0,12}"
    r"|用来(?:检测|发现|判断)[^\n。，；！？,.;!?]{0,12}"
    # a line a program prints when it has already worked around what it names ("torchvision.
    # transforms.functional_tensor not found, applying compatibility fix...", Hunyuan3D-2.1's
    # Windows port): no failure of that name is reported there
    r"|(?m:^[^\n]{0,200}?\b(?:applying|applied)\b[^\n]{0,30}?\b(?:fix|patch|workaround|shim)\b"
    r"[^\n]{0,200})"
    # a test for None in code ("if params.grad is None: continue") is no report that anything is
    # None; a sentence's own clause ("if I print p.grad, it is None") may be
    r"|(?m:^[^\S\n]*(?:if|elif|while|assert)[^\S\n]+(?:not[^\S\n]+)?[\w.\[\]'\"()]{1,80}"
    r"[^\S\n]+is[^\S\n]+(?:not[^\S\n]+)?none\b[^\n]{0,120})"
    # a setting with its comment, from a printed config ("eval_interval = 250 # keep frequent
    # because we'll overfit", "lr: 0.1  # nan above this"): the config's author wrote it
    r"|(?m:^[^\S\n]*[a-z_][\w.\[\]'\"]{0,60}[^\S\n]*[=:][^\S\n]*[^\s#][^\n#]{0,160}"
    r"[^\S\n]#[^\n]*)"
)

# The guess is the question's predicate: an auxiliary and its subject at the start of a sentence
# ("is it", "does that mean", "could this be", "is my model"), to the sentence's end. A question
# whose subject is the metric reports what it does and asks the cause ("is the loss not decreasing
# because of the small batch?"), and one that asks whether what happened is normal ("is it normal
# that the loss does not decrease?") reports it. In Chinese, "是不是/是否/会不会是/难道是" and
# what follows in the clause, or "是…吗" ("…么", but not the 么 of 怎么 or 什么: "pytorch 是 cpu
# 版本怎么办" asks what to do).
_GUESSED = (
    r"(?im)(?:^|(?<=[.!?]))[^\S\n]*(?:(?:and|so|but|then|or)[^\S\n]+)?"
    r"(?:is|are|was|does|do|did|could|can|might|would|will)[^\S\n]+"
    r"(?:it|this|that|these|there|(?:my|the|our)[^\S\n]+(?:model|network|net|training|problem|issue))\b"
    r"(?![^\S\n]+(?:be[^\S\n]+)?(?:normal|ok|okay|expected|fine|common|usual|possible|right)\b)"
    r"[^\n.!?]{0,120}"
    # a name asked about with no verb, alone or among others ("What problem may I occur?
    # Overfitting? Underfitting ?", "(vanishing or exploding gradient? inappropriate learning
    # rate?)"); a metric's behaviour asked so ("loss not decreasing?") is still what was seen
    # (the question mark looked for first: this branch is tried at every line's start)
    r"|(?:^|(?<=[.!?(]))(?=[^\n?]{0,200}\?)"
    r"(?![^\n?]{0,80}?\b(?:loss(?:es)?|acc\w*|memory|gpu|nan|slow\w*)\b)"
    r"[^\S\n]*(?:[a-z-]{2,20}[^\S\n]+){0,3}[a-z-]{4,20}[^\S\n]*\?"
    r"|(?:是不是|是否|会不会是|难道是?|莫非是?)(?!正常|合理|对的)[^\n。！？，,?]{0,15}"
    r"|(?<![不没])是(?!不是|否|正常|合理|对的)[^\n。！？，,?吗么]{1,8}?了?(?:吗|(?<![怎什这那多])么)"
)

# A problem the post rules out ("this is not a GPU memory problem", "it's not overfitting",
# "no OOM error", "并不是过拟合", "没有报 OOM", "排除了显存不足"): the cue and its clause, to the
# clause's end or to the word that turns to what does go wrong ("but", "just", "但是", "而是").
# What is named in there is denied; a family named only so is not answered (_only_denied). The
# symptom a negation itself says ("loss not decreasing", "没有收敛", "no CUDA GPUs are available")
# is kept: only an entry's name inside the clause is denied (a verb after the cue names no entry),
# never one whose name holds the cue. "是不是过拟合", "难道不是过拟合吗" and a clause ending in a
# question mark ask, they do not deny.
_DENIAL_END = (
    r"(?!\b(?:but|however|though|although|while|yet|just|only|instead|rather|because|since|so"
    r"|and|then|after|until|before|once|now|which|where|why|how|what|when)\b"
    r"|但|却|而是|只是|可是|不过|因为|所以|为什么|为啥|怎么|如何|而且|并且|就|然后|之后|直到|结果|导致"
    # a space between two Chinese words ends a clause as a comma does ("没有任何报错 显存一直增长")
    r"|[^\S\n]+[\u4e00-\u9fff])"
)
# (_DENIED and _HEDGED open with the first letters their branches can start with: searched in every
# paste that names an entry, they cost 2 to 3 times more without.)
_DENIED = (
    r"(?i)(?=[iawnrd并不没排])(?:\b(?:isn[’']?t|aren[’']?t|wasn[’']?t"
    # "I do not know why it is OOM", "not enough memory", "can not allocate" deny nothing named
    r"|(?<!\bcan )(?<!\bcould )not"
    r"(?![^\S\n]+(?:only|just|sure|certain|clear|even|yet|much|really|always|necessarily"
    r"|until|all|enough|able|know|understand|see|find|figure|get|think|remember|a[^\S\n]+(?:lot|bit))\b)"
    r"|no(?![^\S\n]+(?:longer|matter|idea|clue|one|more|problem)\b)"
    r"|rather[^\S\n]+than|instead[^\S\n]+of|without"
    # what did not happen to the run ("the model doesn't fail with OOM anymore", "I didn't get any
    # OOM"): the auxiliary, its negation and a verb of happening
    r"|(?:(?:do|does|did|would|will)[^\S\n]+not|(?:don|doesn|didn|wouldn|won)[’']?t)[^\S\n]+"
    r"(?:get|have|fail[^\S\n]+(?:with|from|due[^\S\n]+to)|throw|raise|run[^\S\n]+into|hit"
    r"|see|encounter|cause|lead[^\S\n]+to|show|report|go)s?)\b"
    r"|(?<!是)(?<!难道)(?<!难到)(?<!莫非)(?:并不是|不是|并没有|没有|不存在|排除了?))"
    r"(?P<scope>(?:" + _DENIAL_END + r"[^\n.,;:!?。，；：！？、()（）]){1,60})"
)

# The same denial said after the name, within its clause: "Overfitting does not occur", "OOM
# doesn't happen", "NaN never appears", "memory leak is not the problem", "过拟合倒是没有",
# "nan 没有出现". Only a verb of happening or of being the problem denies: "the loss does not
# decrease", "accuracy does not improve", "CUDA is not available", "显存不够" and "收敛不了" are
# what goes wrong. The name is looked for back to the clause's start (_named_before).
_DENIED_AFTER = (
    r"(?i)(?=[dhwnia倒也并都还根从一没不])(?:\b(?:(?:do|does|did|has|have|had|would|will)[^\S\n]+not"
    r"|(?:don|doesn|didn|hasn|haven|hadn|wouldn|won)[’']?t|never)"
    r"(?:[^\S\n]+(?:really|actually|even|ever|seem[^\S\n]+to|seems[^\S\n]+to|been))*[^\S\n]+"
    # ("does not appear to decrease" says the loss stays: no denial)
    r"(?:occur\w*|happen\w*|appear\w*(?![^\S\n]+to\b)|aris\w*|arose|show(?:s|ed|n)?[^\S\n]+up"
    # or a verb that is itself the problem ("gradients do not explode", "the loss does not
    # fluctuate", "does not become nan"); never one whose negation is the complaint ("does not
    # decrease", "does not converge", "does not go down", "the parameters are not frozen")
    r"|explod\w*|vanish\w*|fluctuat\w*|oscillat\w*|diverg\w*|overfit\w*|leak\w*"
    r"|(?:become|becomes|turn(?:s|ed)?[^\S\n]+(?:in)?to|go(?:es)?[^\S\n]+to|get)[^\S\n]+(?:nan|inf))\b"
    r"|\b(?:is|are|was|were)(?:[^\S\n]+not|n[’']?t)(?:[^\S\n]+(?:really|actually|even))?[^\S\n]+"
    r"(?:(?:the|a|an|my|our|any)[^\S\n]+)?(?:(?:main|real|actual|only|big)[^\S\n]+)?"
    r"(?:(?:problem|issue|cause|culprit|reason|concern|happening|occurring|observed|present)s?"
    r"|stuck|hanging|hung|leaking|exploding|vanishing|fluctuating|oscillating|overfitting"
    r"|nan|inf)\b"
    r"|(?:倒是|倒|也|并|都|还|根本|从来|一直)?(?:并没有|没有|从没有?|没)(?:出现|发生|遇到|爆)?过?了?"
    r"(?=$|[\n。，；！？,.;!?])"
    r"|(?:倒是|倒|也|并|都|根本)?(?:不是|没有?什么|没有?)(?:问题|原因)(?=$|[\n。，；！？,.;!?])"
    r")"
)
# A condition beside a denial after the name says where the problem does happen ("NaN does not
# appear with fp32", "OOM doesn't happen when batch size is 8", "用 fp32 的时候 nan 没有出现"):
# no denial.
_CONDITION_AFTER = (
    r"(?i)^[^\S\n]*(?:when|if|with|on|in|for|unless|until|at|using|under|during|while|as long)\b"
)
_CONDITION_BEFORE = (
    r"(?i)\b(?:when|if|with|after|once|using|unless)\b"
    r"|时候|时，|如果|的话|之后|以后|改成|换成|改用|用了"
)
_CLAUSE_START = (
    r"(?i)[\n.,;:!?。，；：！？、()（）]|\b(?:but|however|though|although|while|yet|instead|rather"
    r"|because|since|so|and|then|until|before|which|where|why|how|what|that)\b"
    r"|但|却|而是|只是|可是|不过|因为|所以|而且|并且|然后|直到|结果|导致|(?<=[\u4e00-\u9fff])[^\S\n]+(?=[\u4e00-\u9fff])"
)

# An opinion, not a report: "I think it's overfitting", "seems like underfitting", "probably a
# memory leak", "maybe your lr is too high", "我觉得是过拟合", "感觉是过拟合了", "可能是梯度消失",
# "怀疑是内存泄漏". What follows the cue, to the end of its clause, is what the writer (or a
# commenter in the thread) believes, and ranks like a guess asked about (_GUESSED): below what the
# text reports. A metric right after the cue is a report said softly ("it seems the loss is
# stuck", "感觉 loss 不下降"): what the numbers do is seen, not believed. "seems"/"looks" count
# with no subject or a pronoun one ("looks like overfitting?"), not after a metric's name.
_METRIC_NEXT = (
    r"(?![^\S\n]*(?:(?:the|my|our|your)[^\S\n]+)?(?:loss(?:es)?|accuracy|acc|memory|gpu"
    r"|(?:val(?:idation)?|train(?:ing)?|test)[^\S\n]+(?:loss|acc\w*)|损失|准确率|精度|显存|内存|gpu)\b)"
)
_HEDGED = (
    r"(?i)(?=[iaslgctpmk])(?:\bi[^\S\n]+(?:think|guess|suspect|believe|feel|assume"
    r"|wonder[^\S\n]+(?:if|whether))"
    r"|\bi[’']?m[^\S\n]+(?:not[^\S\n]+sure|guessing)"
    r"|(?:^|(?<=[\s,;(])|\b(?:it|this|that)[^\S\n]+)(?:seems?|looks?|sounds?)[^\S\n]+(?:like|that|to[^\S\n]+be)"
    r"|\b(?:an?[^\S\n]+)?(?:(?:good|clear|typical)[^\S\n]+)?(?:sign|indicator|indication)[^\S\n]+of\b"
    r"|\b(?:maybe|perhaps|probably|possibly)\b|\b(?:might|may|could)[^\S\n]+be\b"
    r"|\ba[^\S\n]+(?:bit|little)(?=[^\S\n]+\w+ing\b)|\b(?:kind|sort)[^\S\n]+of\b)"
    + _METRIC_NEXT
    + r"[^\n.!?;,]{0,80}"
    r"|(?:我觉得|我感觉|感觉|觉得|我猜|猜测|应该是|可能是|怀疑是?|估计是?|大概是|好像是?|似乎是?|疑似)"
    + _METRIC_NEXT
    + r"[^\n。！？，,;；?!]{0,20}"
)
# Every branch of _HEDGED holds one of these words: a text without any is read no further (the
# pattern, tried at every position, costs more than reading a paste for these words).
_HEDGE_CUES = (
    *("think", "guess", "suspect", "believe", "feel", "assume", "wonder", "sure", "seem"),
    *("look", "sound", "sign", "indicat", "maybe", "perhaps", "probabl", "possibl", "might"),
    *("may", "could", "bit", "little", "kind", "sort"),
    *("觉得", "感觉", "猜", "应该是", "可能是", "怀疑", "估计", "大概是", "好像", "似乎", "疑似"),
)


@dataclass(frozen=True)
class Match:
    entry: Entry
    score: int
    error: Error | None  # None for a symptom, which has no exception
    method: str  # "signature" | "fuzzy" | "frames" | "log" | "phrase" | "guess" | "finding"
    signature: Signature | None = None
    values: dict[str, str] = field(default_factory=dict)

    @property
    def title(self) -> dict[str, str]:
        """The entry's title, or the matched wording's when it names a case of its own."""
        case = self.entry.case(self.signature) if self.signature else None
        return (case and case["title"]) or self.entry.title

    @property
    def cause(self) -> dict[str, str]:
        """The entry's cause, or the matched wording's when it names a case of its own."""
        case = self.entry.case(self.signature) if self.signature else None
        return (case and case["cause"]) or self.entry.cause

    @property
    def fix(self) -> dict[str, str]:
        """The entry's fix, or the matched wording's when it names a case of its own."""
        case = self.entry.case(self.signature) if self.signature else None
        return (case and case["fix"]) or self.entry.fix


@dataclass(frozen=True)
class Diagnosis:
    trace: Trace
    matches: tuple[Match, ...]

    @property
    def best(self) -> Match | None:
        return self.matches[0] if self.matches else None

    @property
    def source(self) -> Location | None:
        """Where in PyTorch's own sources the error no entry explains is raised (the source
        tier: knowledge/source_tier.py). None whenever an entry matched: the tier is not even
        imported then. It only locates; it never makes a match."""
        if self.matches:
            return None
        return _located(self.trace)


_LOCATED: dict[int, tuple[Trace, Location | None]] = {}


def _located(trace: Trace) -> Location | None:
    """The root error first, then the others, last first: the first one the tier locates."""
    held = _LOCATED.get(id(trace))
    if held is not None and held[0] is trace:
        return held[1]
    from ..knowledge.source_tier import locate

    root = trace.root
    errors = [root] if root is not None else []
    errors += [e for e in reversed(trace.errors[-_MAX_ERRORS:]) if e is not root][:5]
    found = None
    for err in errors:
        if err.kind in ("exception", "assert"):
            files = tuple(f.filename for f in err.frames)
            found = locate(err.message, err.exc_type, files)
            if found:
                break
    if found is None and root is not None and root.kind in ("exception", "assert"):
        # what the parser leaves out of the message: c10's "Exception raised from f at
        # file:line" under a CUDA error, THC's "THCudaCheck FAIL file=... line=..." above it
        from ..knowledge.source_tier import Location, named_site

        named = named_site(trace.text, root.exc_type)
        if named is not None:
            found = Location(message=root.message, sites=(named,), count=1)
    if len(_LOCATED) > 64:
        _LOCATED.clear()
    _LOCATED[id(trace)] = (trace, found)
    return found


def diagnose(text: str, index: Index) -> Diagnosis:
    return match(parse(text), index)


def match(trace: Trace, index: Index) -> Diagnosis:
    best: dict[str, Match] = {}

    def keep(m: Match) -> None:
        """Each entry once, with its best evidence; nothing below the threshold."""
        held = best.get(m.entry.id)
        if m.score >= THRESHOLD and (held is None or m.score > held.score):
            best[m.entry.id] = m

    root = trace.root
    # Later errors in a log are likelier to be the one that stopped the run; keep the last ones,
    # and the root, which a long chain of re-raises prints first of all.
    chosen = trace.errors[-_MAX_ERRORS:]
    if root is not None and all(err is not root for err in chosen):
        chosen = (root, *chosen)
    foreign: bool | None = None  # read once, and only for a paste with an error an entry fits
    unexplained: list[Error] = []  # the exceptions that stopped the run, which no entry fits
    failing = _FailingLines(trace)
    for err in chosen:
        found = _signature_matches(err, index, trace.text, failing)
        found = found or _fuzzy_matches(err, index, trace.text, failing)
        found = found or _frame_matches(err, index)
        if not found and _stopped_the_run(err):
            unexplained.append(err)
        if found and foreign is None:
            foreign = from_another_framework(trace.as_pasted)
        if foreign:
            # another framework's error in PyTorch's words (Paddle's illegal memory access), or a
            # message HIP or CUDA prints for any of them (hipErrorNoBinaryForGpu in TensorFlow's
            # log): its causes and fixes are that framework's
            continue
        for m in _as_warnings(found, err, trace):
            keep(m if err is root else replace(m, score=round(m.score * _NOT_ROOT_FACTOR)))
    if unexplained and not best and foreign is None:
        # read now: a title's or a logged line's wording is another framework's too (TensorFlow's
        # "failed to run cuBLAS routine" logged above its own InternalError)
        foreign = from_another_framework(trace.as_pasted)
    if unexplained and not best and not foreign:
        # No entry knows the exceptions that stopped the run (a dataset script not found), but
        # the post's title may state the PyTorch error it is about ("errors with undefined
        # symbol: _ZNK3c106SymIntltEl during training"): a title is the user's subject. Its
        # wordings only, as an error printed before the root.
        title = _title_of(trace)
        # a title that restates an exception no entry took ("Help Me ! ValueError: not enough
        # values to unpack" above OpenCV's findContours line) was judged with it already
        if title is not None and not any(
            err.message.strip() and err.message in title for err in unexplained
        ):
            for m in _signature_matches(Error(None, title), index, trace.text, failing):
                keep(replace(m, score=round(m.score * _NOT_ROOT_FACTOR)))
        if not best:
            for m in _logged_wordings(trace, index, failing):
                keep(m)
    # a warning printed on the way is no exception: a sentence beside it is still read
    has_exception = any(
        (e.exc_type and e.kind != "warning") or e.kind == "assert" for e in trace.errors
    )
    # a traceback cut before its message: the run crashed, but the paste lost why
    crashed = _cut_before_its_message(trace)
    for m in _symptom_matches(trace, index, has_exception, crashed):
        if m.method == "log" and _stopped_by_its_text(root, unexplained):
            continue  # the log's numbers are the run's so far; the post is the program's error
        keep(m)
    for m in _stated_by_a_check(unexplained, trace, index):
        keep(m)
    for m in _finding_matches(trace.text, index):
        keep(m)
    # at equal scores, a wording that also fits the failing line (a `code` condition) or the rest
    # of the paste (`beside`) is the more specific answer: gather's index under torch.compile, on
    # a cross_entropy line, is the target
    ranked = sorted(
        _warnings_last(best.values(), bool(unexplained), crashed or _named_not_shown(trace)),
        key=lambda m: (
            -m.score,
            not (m.signature is not None and (m.signature.code or m.signature.beside)),
        ),
    )
    return Diagnosis(trace, tuple(ranked))


# a title longer than this is a pasted line, not a post's title
_MAX_TITLE = 200
_FIRST_LINE = r"\s*([^\n]*)"


def _title_of(trace: Trace) -> str | None:
    """The paste's first line when it reads as a post's title: short, and no line of an error
    the parser found (those were matched already)."""
    line = compile_cached(_FIRST_LINE).match(trace.text)  # always matches; copies no long log
    first = line[1].strip() if line else ""
    if not first or len(first) > _MAX_TITLE or any(first in err.text for err in trace.errors):
        return None
    return first


# how many of a paste's lines are read for a wording a logger printed (_logged_wordings), the
# shortest line read, and the shortest message of an error judged already that a line may restate
_MAX_LOGGED_LINES = 400
_MIN_LOGGED = 20
_MIN_JUDGED = 12


# Exceptions about the program's text, which no value of a run causes: a name not defined, a
# syntax error. (An ImportError is not one: a DLL, a symbol or torch itself missing is an
# install's, and the entries know many.)
_PROGRAM_TEXT_ERRORS = frozenset({"NameError", "SyntaxError", "IndentationError", "TabError"})


def _stopped_by_its_text(root: Error | None, unexplained: list[Error]) -> bool:
    """The run was stopped by an error in the program's text that no entry knows ("NameError:
    name 'lr_scheduler' is not defined" under epochs whose loss is nan): what the log shows
    before it (a nan, a flat loss) is no cause of it, and not what the post asks about."""
    return (
        root is not None
        and any(err is root for err in unexplained)
        and root.exc_type is not None
        and root.exc_type.rsplit(".", 1)[-1] in _PROGRAM_TEXT_ERRORS
    )


def _logged_wordings(trace: Trace, index: Index, failing: _FailingLines) -> list[Match]:
    """A known error's wording that a line of the paste reports after a label of its own: a
    logger's record ("2020-04-24 10:01:09 [INFO]: unexpected EOF, expected 6133124 more bytes"),
    a program that caught the error ("Skipping iteration due to error: Caught RuntimeError in
    replica 0 on device 0."), a user naming the cause ("导入失败，原因： DLL load failed"). Read
    only where nothing else answered: the parser takes such lines for no error, and the error
    it found instead (a C++ abort after the log line) names no entry. A wording at the start of a
    line is no such report (a printout: `_IncompatibleKeys(...)`), nor is a line restating an
    error already judged (a title quoting the exception OpenCV's findContours raised)."""
    out: list[Match] = []
    judged = [err.message.split("\n", 1)[0].strip() for err in trace.errors]
    judged = [m for m in judged if len(m) >= _MIN_JUDGED]
    before = ""  # the line above, whose label a record's message may have wrapped after
    lines = list(_first_lines(trace.as_pasted, _MAX_LOGGED_LINES))
    for at, line in enumerate(lines):
        if len(line) < _MIN_LOGGED or any(m in line for m in judged):
            before = line
            continue
        for m in _signature_matches(Error(None, line), index, trace.text, failing):
            hit = m.signature.regex.search(line) if m.signature else None
            if m.entry.kind != "error" or hit is None:
                continue
            # a record whose label ends its own line ("... include a screenshot of the error:"
            # then "Torch not compiled with CUDA enabled"): a sentence's colon, not a printout's
            own = line[: hit.start()].rstrip()
            if own:
                reported = own.endswith((":", "：")) or bool(_REPORTED_IN_MARKS.search(own))
            else:
                # torch's own message printed without its class (a caught error's str()), which
                # its CUDA boilerplate on the next line vouches for
                after = lines[at + 1] if at + 1 < len(lines) else ""
                reported = bool(_WORDED_LABEL.search(before) or _CUDA_BOILERPLATE.match(after))
            if reported and all(m.entry.id != o.entry.id for o in out):
                out.append(replace(m, score=round(m.score * _NOT_ROOT_FACTOR)))
        before = line
    return out


# the lines torch adds below a CUDA error's message
_CUDA_BOILERPLATE = compile_cached(
    r"CUDA kernel errors might be asynchronously reported|For debugging consider passing "
    r"CUDA_LAUNCH_BLOCKING=1|Compile with `TORCH_USE_CUDA_DSA`"
)


# a user's verb of reporting, then the wording in brackets or quotation marks
# ("半监督训练时直接报显存溢出<CUDA out of memory>", "then I got \"CUDA out of memory\""): the
# words quote what was printed
_REPORTED_IN_MARKS = compile_cached(
    r"(?i)(?:报错?|提示|出现|显示|遇到|\b(?:got|get|gets|throws?|raised?|reports?|shows?))"
    r"[^\n，。,.;；]{0,8}[<《「“\"'(（]$"
)


# a line of words that ends in "error:" or "错误：" (or 原因、reason、message), as a logger's
# record introduces what it caught; a dict's or a printout's key ("result:") is no such label
_WORDED_LABEL = compile_cached(
    r"(?i)(?:\b(?:the\s+)?(?:error|exception|reason|message)s?|错误|报错|原因|异常)\s*[:：]$"
    # or a sentence that announces it ("Hi, I am getting this error.")
    r"|\b(?:this|these|the following|following)\s+(?:errors?|exceptions?)\s*[.。]?$"
)


def _first_lines(text: str, count: int) -> Iterator[str]:
    """The text's first `count` lines, stripped, each at most MAX_MESSAGE long: a log may be a
    gigabyte, or one line of megabytes, and neither is copied whole."""
    start = 0
    for _ in range(count):
        if start > len(text):
            return
        end = text.find("\n", start, start + MAX_MESSAGE)
        stop = start + MAX_MESSAGE if end == -1 else end
        yield text[start:stop].strip()
        if end == -1:
            end = text.find("\n", stop)  # the rest of an overlong line is skipped
            if end == -1:
                return
        start = end + 1


def _stated_by_a_check(errors: list[Error], trace: Trace, index: Index) -> list[Match]:
    """The training behaviour that a program's own check stopped the run for, in its exception's
    words: detectron2's `FloatingPointError: Loss became infinite or NaN at iteration=N!`, a
    script's `AssertionError: Loss is NaN or infinite at epoch 0`. No entry knows the program's
    wording, but it states a symptom as a user's sentence would, so its message is read as one:
    the symptom entries its words name or describe, with the failing line as the place. Only
    the messages of exceptions that stopped the run unexplained: a known error's words are that
    error's, and a paste's other text is no statement of the check's."""
    if not errors:
        return []
    said = "\n".join(err.message for err in errors)[:_MAX_SENTENCE]
    sentence = normalise(said, index.vocabulary)
    ids = named_entries(sentence, index) | described_symptoms(sentence, index)
    ids -= _only_denied(said, ids, index)
    symptoms = [index.by_id[i] for i in ids if index.by_id[i].kind == "symptom"]
    if not symptoms or another_program(trace.as_pasted[:_MAX_SENTENCE], behaviour=True):
        return []
    err = errors[-1]
    return _narrower_first([Match(entry, _PHRASE_SCORE, err, "phrase") for entry in symptoms])


def _cut_before_its_message(trace: Trace) -> bool:
    """The paste shows a traceback but not the exception it ends with: the run crashed, and
    the cut took what of. A header with no frame read after it is one too ("Traceback (most
    recent call last):" then a path cut mid-word)."""
    if any(err.is_cut_off for err in trace.errors):
        return True
    return "Traceback (most recent call last)" in trace.text and not any(
        err.exc_type and err.kind == "exception" for err in trace.errors
    )


# an exception's class named in a title without its message ("Tensor NotImplementedError"; a
# title "RuntimeError: ..." shows what it said)
_EXCEPTION_NAMED = compile_cached(
    r"\b[A-Z][A-Za-z]{2,40}(?:Error|Exception)\b(?![^\S\n]*[:：][^\S\n]*\S|[^\S\n]+\d)"
)


def _named_not_shown(trace: Trace) -> bool:
    """The title names an exception that the paste never shows: the run failed with it, and
    what it said was left out (a screenshot, a cut log) — as a traceback cut before its message
    tells."""
    # sliced before it is stripped: a gigabyte log is not copied to find its first line
    title = trace.as_pasted[:400].lstrip()[:200].split("\n", 1)[0]
    if not ("Error" in title or "Exception" in title) or any(
        e.message[:40] in title for e in trace.errors if e.message
    ):
        return False  # no class named, or the title is an error's own line (a warning's)
    named = set(_EXCEPTION_NAMED.findall(title))
    shown = {(e.exc_type or "").rsplit(".", 1)[-1] for e in trace.errors if e.kind != "warning"}
    return any(name not in shown for name in named)


def _stopped_the_run(err: Error) -> bool:
    """An exception of its own, complete: not a warning, not a launcher's or a worker's "a child
    failed", not a traceback cut before its exception line, not the user's Ctrl-C, not a clean
    exit (a SystemExit with a failure's code, "SystemExit: -1" after the program logged what
    failed, is the program stopping)."""
    kind = (err.exc_type or "").rsplit(".", 1)[-1]
    return (
        err.kind == "exception"
        and bool(err.exc_type)
        and not err.is_wrapper
        and kind != "KeyboardInterrupt"
        and not (kind == "SystemExit" and err.message.strip() in ("", "0", "None", "False"))
    )


# A warning's words that something failed (CUDA's "Unexpected error from cudaGetDeviceCount()",
# torchvision's "Failed to load image Python extension"), where most warnings tell a choice or a
# deprecation: such a warning may be what a traceback cut before its message goes on to show.
_A_FAILURE = compile_cached(
    r"(?i)\b(?:errors?|fail(?:ed|s|ure)?|cannot|can't|unable|could not|couldn't|not found)\b"
)
# ... unless what failed is an optional part the run goes on without: torchvision's image
# extension, whose warning newer releases close with "you can ignore this warning" (a traceback
# cut below it is some other failure's, heldout14, heldout19 and heldout31 show)
_OPTIONAL_PART = compile_cached(r"Failed to load image Python extension")
# ... or a deprecation, whose error is one a later release will raise ("invalid index of a 0-dim
# tensor. This will be an error in PyTorch 0.5")
_NOT_YET = compile_cached(r"(?i)\bwill (?:be(?:come)?|raise) an error\b")


def _as_warnings(found: list[Match], err: Error, trace: Trace) -> list[Match]:
    """A post's prose read as one message (a title, the words around a log) holds the log's lines
    too: a wording found there that a warning of the log prints is that warning's ("invalid index
    of a 0-dim tensor. This will be an error in PyTorch 0.5" above a cut traceback), and ranks
    as that warning does, whatever the prose says of a failure ("then failed with error")."""
    if err.exc_type is not None:
        return found
    warnings = [e for e in trace.errors if e.kind == "warning" and e.exc_type and e is not err]
    if not warnings:
        return found
    out = []
    for m in found:
        said = m.signature.regex if m.signature else None
        told = next((w for w in warnings if said and said.search(w.message)), None)
        out.append(m if told is None else replace(m, error=told))
    return out


def _warnings_last(
    found: Iterable[Match], unexplained: bool = False, cut: bool = False
) -> list[Match]:
    """A warning printed on the way (a deprecation, a scheduler called out of order) is not what
    stopped the run: what the log shows (loss turned nan) or an exception ranks above it, so its
    matches fall below theirs, and out when that is below the threshold. An exception no entry
    explains stopped the run all the same: the warning printed before it is no answer to it (a
    0-dim index warning above "backward_input can only be called in training mode"). Nor is a
    warning that tells of no failure an answer to a traceback `cut` before its message:
    checkpoint's "None of the inputs have requires_grad" above a sampling step's frames,
    autocast's "CUDA is not available. Disabling" above a Mac's (a warning that something failed,
    CUDA's initialisation above a Trainer that wants a GPU, may well be). A sentence's phrases do
    not push a warning down: they may be read from the warning's own words."""
    found = list(found)
    others = [
        m.score
        for m in found
        if (m.error is None and m.method == "log")
        or (m.error is not None and m.error.kind != "warning")
    ]
    if not others and not unexplained and not cut:
        return found
    ceiling = min(others) - 1 if others else THRESHOLD - 1

    def pushed(m: Match) -> bool:
        if m.error is None or m.error.kind != "warning":
            return False
        told_a_failure = (
            _A_FAILURE.search(m.error.message)
            and not _OPTIONAL_PART.search(m.error.message)
            and not _NOT_YET.search(m.error.message)
        )
        return bool(others) or unexplained or (cut and not told_a_failure)

    return [
        m if not pushed(m) or m.score <= ceiling else replace(m, score=ceiling)
        for m in found
        if not pushed(m) or ceiling >= THRESHOLD
    ]


def _signature_matches(err: Error, index: Index, text: str, failing: _FailingLines) -> list[Match]:
    """The entries one of whose wordings the message is; `text` is the whole paste (`beside`),
    `failing` gives the lines of code it failed on (`code`, `unless_code`)."""
    out = []
    exc_name = err.exc_type.rsplit(".", 1)[-1].lower() if err.exc_type else None
    # A message wrapped mid-word by a terminal reads whole again without its line breaks.
    unwrapped = err.message.replace("\n", "")
    lowered = err.message.lower()
    if unwrapped != err.message:  # a one-line message is searched once
        lowered += "\0" + unwrapped.lower()
    if err.exc_type:  # what anchors the signatures known by the exception's class alone
        lowered += "\0" + err.exc_type.lower()
    matched: set[str] = set()
    # Only the signatures whose anchor the message contains: the rest cannot match.
    for entry, sig in index.candidates(lowered):
        if entry.id in matched:
            continue  # the first signature that fits an entry is its most specific wording
        if sig.type_regex and not (err.exc_type and sig.type_regex.search(err.exc_type)):
            continue
        hit = sig.regex.search(err.message) or (
            sig.regex.search(unwrapped) if unwrapped != err.message else None
        )
        if hit is None:
            continue
        # a wording of no words ("^") stands on the rest of the paste: ask that first, before its
        # `unless` reads every message
        beside = sig.beside_regex
        if not hit.group() and beside and not beside.search(text or err.message):
            continue
        if sig.unless_regex and sig.unless_regex.search(err.message):
            continue
        if sig.code_regex and not _code_fits(sig.code_regex, failing(err.message)):
            continue
        if sig.unless_code_regex and _code_fits(sig.unless_code_regex, failing(err.message)):
            continue
        if sig.beside_regex and not sig.beside_regex.search(text or err.message):
            continue
        score = 100
        if sig.exceptions and exc_name and exc_name not in {e.lower() for e in sig.exceptions}:
            score -= _TYPE_MISMATCH_PENALTY
        before = err.message[: hit.start()]
        if not err.exc_type and not err.relation and len(before.split()) >= 3 and ":" not in before:
            # a message mentioned in a sentence ("... until I get CUDA out of memory"), not
            # after a log's "Warning:" or "Error:", names the error no more surely than its
            # phrases do; one quoted inside another error (torch.compile's report of a fake-tensor
            # run, printed without its class) is no sentence
            score = min(score, _NAMED_SCORE)
        values = {k: v for k, v in hit.groupdict().items() if v is not None}
        if "need" in values and "have" in values and not _older(values["have"], values["need"]):
            continue  # a version check that names one it found as new as the one it needs
        if sig.newer_name and not newer(values.get("module", "torch"), values.get("name", "")):
            continue  # a name every torch since 1.0 has: missing for another reason
        if sig.newer_name and _imported_while_running(err, hit.end()):
            continue  # the module's own file is on the stack: its import failed, not the name
        if values.get("module", "").startswith("torch") and _torch_imports_itself(err):
            continue  # torch's own files and its binary disagree: a broken install
        out.append(Match(entry, score, err, "signature", sig, values))
        matched.add(entry.id)
    return out


# The module's file that "cannot import name 'X' from 'M' (/path/M/__init__.py)" names
_IMPORTED_FROM = compile_cached(r" \((?P<path>[^()\n]{1,300}\.py)\)")


def _imported_while_running(err: Error, end: int) -> bool:
    """The module a name could not be imported from is itself being imported further up the
    same traceback: its file's import of something else led back to it (a script named
    tensorboard.py that imports torch.utils.tensorboard, which imports tensorboard). A circular
    import leaves the name undefined however new the torch is."""
    named = _IMPORTED_FROM.match(err.message, end)
    if named is None or not err.frames:
        return False
    path = named["path"].replace("\\", "/")
    return any(f.filename.replace("\\", "/") == path for f in err.frames)


# A file of the installed torch package itself (not a project's folder named torch)
_INSTALLED_TORCH = compile_cached(r"[/\\](?:site|dist)-packages[/\\]torch[/\\]")


def _torch_imports_itself(err: Error) -> bool:
    """The import that failed is one of torch's own files importing from torch ("from torch._C
    import _get_cpp_backtrace" in torch/utils/cpp_backtrace.py, at `import torch`): the Python
    files and the binary come from two releases (an install over another, a conda environment
    mixing channels). No project's code is too old or too new for this torch; reinstalling it is
    the fix, which the removed-API and too-old entries would not say."""
    return bool(err.frames) and bool(_INSTALLED_TORCH.search(err.frames[-1].filename))


def _older(have: str, need: str) -> bool:
    """A release number below another ("2.0.1" < "2.1"): a library's check quoting both fails
    only then. Its `==` pin also fails on a newer one, but that newer torch is not too old."""
    return tuple(map(int, have.split("."))) < tuple(map(int, need.split(".")))


class _FailingLines:
    """A message's failing lines of code: the innermost frame's and the user's own deepest, of
    every error that prints it (a post's title repeats its traceback's message without them).
    Read from the paste the first time a signature's `code` or `unless_code` asks."""

    def __init__(self, trace: Trace) -> None:
        self._trace = trace
        self._lines: dict[str, tuple[str, ...]] = {}

    def __call__(self, message: str) -> tuple[str, ...]:
        if message not in self._lines:
            found: list[str | None] = []
            cut: Error | None = None  # one printed without its frames
            for err in self._trace.errors:
                if err.message == message and err.frames:
                    found += (err.frames[-1].line, err.where.line if err.where else None)
                elif err.message == message:
                    cut = err
            if cut is not None:  # a traceback cut to its last lines: the source printed above
                found.append(_source_above(self._trace.text, cut.text))
            self._lines[message] = tuple(line for line in found if line)
        return self._lines[message]


def _source_above(text: str, shown: str) -> str | None:
    """The indented line right above where the paste prints the error (`shown`), if any: the
    source line of a traceback cut above it ("    _, c, _ = cv2.findContours(m, ...)")."""
    first = shown.split("\n", 1)[0]
    if not first.strip():
        return None  # nothing to find it by
    at = text.find(first)
    for _ in range(_PRINTED_AGAIN):  # a title, then the traceback's own line further down
        if at < 0:
            return None
        start = text.rfind("\n", 0, at) + 1  # where the error's line starts
        if start > 0:
            above = text[text.rfind("\n", 0, start - 1) + 1 : start - 1]
            if above[:1].isspace() and above.strip():
                return above.strip()
        at = text.find(first, at + 1)
    return None


# how many times a message is looked for in the paste (_source_above)
_PRINTED_AGAIN = 4


def _code_fits(code: re.Pattern[str], lines: tuple[str, ...]) -> bool:
    return any(code.search(line) for line in lines)


# A heading set between two rules: its rules' characters resemble any example that prints a rule
_BANNER = r"^[=_*#-]{3,} [^\n]{1,80}? [=_*#-]{3,}$"


# a message resembles an example only in English words, three at least
_ENGLISH_WORD = r"[A-Za-z]{2,}"
_MIN_FUZZY_WORDS = 3


def _fuzzy_matches(err: Error, index: Index, text: str, failing: _FailingLines) -> list[Match]:
    from .mask import key_tokens, mask, squash

    masked = mask(err.message.split("\n", 1)[0])
    if len(masked) < 12:  # too little text to resemble anything reliably
        return []
    keys, squashed = key_tokens(masked), squash(masked)
    if len(squashed) < 12:  # a rule of "=====" is no message
        return []
    if compile_cached(_BANNER).match(masked):
        return []  # nor is a heading between rules (pytest's "=== test session starts ===")
    if len(compile_cached(_ENGLISH_WORD).findall(masked)) < _MIN_FUZZY_WORDS:
        return []  # two English words in a Chinese title ("关于compile error") resemble anything
    if "internal assert failed" in masked or (err.kind == "assert" and "' failed" in masked):
        # an internal assertion is its condition and place, the rest boilerplate: "handle_0
        # INTERNAL ASSERT FAILED at driver_api.cpp" resembles "device >= 0 && device < num_gpus
        # INTERNAL ASSERT FAILED at CUDAContext.cpp" in its boilerplate alone, and C's assert()
        # ("Assertion `false' failed.") a CUDA kernel's
        return []
    codes = _error_codes(err.message)
    examples = _indexed_examples(index)
    similarity: dict[int, float] = {}  # entry position -> its closest example's similarity
    unless: dict[int, tuple[bool, ...]] = {}
    refused: dict[int, bool] = {}  # asked once per entry, not once per example of it
    for i, ratio in _close_examples(masked, squashed, examples).items():
        e, ex = examples.entries[i], examples.example(i)
        if e not in unless:
            unless[e] = _unless_side(index.entry(e), err.message)
            refused[e] = _refused_by_its_wording(index.entry(e), err, text)
        if (
            ratio > similarity.get(e, 0.0)
            and not refused[e]
            and not _code_rules_out(index.entry(e), err, failing)
            and _same_keys(keys, ex.keys)
            and (not (codes and ex.codes) or codes == ex.codes)
            # the entry sends a message its `unless` matches elsewhere, unless the example it
            # resembles matches it too
            and all(ex_side or not side for side, ex_side in zip(unless[e], ex.unless, strict=True))
            and not _a_word_replaced(masked, squashed, ex)
            and not _another_argument_check(masked, ex.masked)
            # the example, maybe with other numbers or words around it, which a signature
            # recognises: the signature's verdict on the message stands
            and not (
                ex.pinned
                and _singular(ex.pinned) in _singular(_numberless(err.message))
                and not _pins_fit(index.entry(e), err, text)
            )
        ):
            similarity[e] = ratio
    if not similarity:
        return _cut_short_matches(err, masked, examples, index)
    return [
        Match(index.entry(e), round(s * _FUZZY_CAP / 100), err, "fuzzy")
        for e, s in sorted(similarity.items())
    ]


def _cut_short_matches(
    err: Error, masked: str, examples: _IndexedExamples, index: Index
) -> list[Match]:
    """A message cut short, by a post's title ("RuntimeError: element 0 of tensors does not
    require grad") or an ellipsis: the start of one entry's examples, long enough to say which.
    The whole message resembles none of them (the fuzzy stage compares whole messages)."""
    head = masked.rstrip(" .…")
    if len(head) < _CUT_MIN_LENGTH or head.count(" ") < _CUT_MIN_WORDS - 1:
        return []
    found = {
        examples.entries[i]
        for i in examples.starting_with(head)
        if len(examples.masked[i]) >= len(head) + _CUT_MIN_LEFT
    }
    if len(found) != 1:
        return []  # none, or the start of several entries' messages: it does not say which
    return [Match(index.entry(found.pop()), _CUT_SCORE, err, "fuzzy")]


def _error_codes(message: str) -> list[str]:
    return compile_cached(_ERROR_CODE).findall(message.split("\n", 1)[0])


def _close_examples(masked: str, squashed: str, examples: _IndexedExamples) -> dict[int, float]:
    """Example position -> its similarity to the message, for the examples similar enough to
    count: the better of the two forms' ratios, each computed in C over every example at once,
    those below the minimum cut off early. The word checks, dear in Python, are left for these."""
    from ..knowledge.fuzzy import fuzz, process  # only for messages no signature recognised

    close: dict[int, float] = {}
    for query, choices in ((masked, examples.masked), (squashed, examples.squashed)):
        for _, ratio, i in process.extract(
            query,
            choices,
            scorer=fuzz.ratio,
            processor=None,
            score_cutoff=_FUZZY_MIN_SIMILARITY,
            limit=None,
        ):
            close[i] = max(close.get(i, 0.0), ratio)
    return close


def _frame_matches(err: Error, index: Index) -> list[Match]:
    """Only for a traceback whose exception line is missing, or whose exception says nothing
    (a bare `raise NotImplementedError`, for the signatures that name its class): a message,
    when there is one, says more than the frames it passed through. Frames that re-raise an
    error from elsewhere (`wraps`) are the exception: its message is no evidence against them."""
    if not err.frames:
        return []
    bare = err.exc_type.rsplit(".", 1)[-1] if err.exc_type else None
    says = bare is not None and not err.says_nothing
    paths = [(f.filename.replace("\\", "/"), f) for f in err.frames]
    return [
        Match(entry, _FRAME_SCORE, err, "frames")
        for entry in index.framed_entries
        if any(
            (sig.wraps or (not says and (bare is None or sig.raised == bare)))
            and _calls_in(sig, paths)
            for sig in entry.frames
        )
    ]


def _calls_in(sig: FrameSignature, paths: list[tuple[str, Frame]]) -> bool:
    """The signature's calls appear in the frames in order; with `source`, the last one is the
    innermost frame and its source line matches."""
    calls = list(sig.call_patterns)
    if sig.source_regex is not None:
        (suffix, function), (path, frame) = calls.pop(), paths[-1]
        if not (path.endswith(suffix) and function.fullmatch(frame.name)):
            return False
        if not sig.source_regex.search(frame.line or ""):
            return False
        paths = paths[:-1]
    frames = iter(paths)  # consumed as the calls are found: they must come in this order
    return all(
        any(path.endswith(suffix) and function.fullmatch(f.name) for path, f in frames)
        for suffix, function in calls
    )


def _pins_fit(entry: Entry, err: Error, text: str) -> bool:
    """Some signature of the entry fits the message's text (whatever its class), and the rest of
    the paste (`text`) where it asks. Asked of a message that is one of the entry's examples,
    maybe with other numbers, where a signature fits that example: the signature pins a number
    the message does not have ("takes 1 positional argument but 2 were given" is a transform
    class called on an image; "but 4 were given" is some other constructor), or what the paste
    must show beside it (an old torchvision's missing ops, not on Python 3.11), so the
    resemblance is no evidence."""
    texts = {err.message, err.message.replace("\n", ""), err.message.strip(_QUOTING)}
    return any(
        s.regex.search(t)
        and not (s.unless_regex and s.unless_regex.search(t))
        and not (s.beside_regex and not s.beside_regex.search(text or err.message))
        for s in _by_text(entry)
        for t in texts
    )


def _refused_by_its_wording(entry: Entry, err: Error, text: str) -> bool:
    """One of the entry's wordings is the message, and what it asks beside it is missing (the
    paste's `beside`, or its `unless`): the entry knows this message and has said no. Anomaly
    mode's "Error detected in AddmmBackward0" warning cut before its error resembles the same
    warning over another op, but the wording asks for the nan that is not in the paste."""
    texts = (err.message, err.message.replace("\n", ""))
    return any(s.regex.search(t) for s in _by_text(entry) for t in texts) and not _pins_fit(
        entry, err, text
    )


def _code_rules_out(entry: Entry, err: Error, failing: _FailingLines) -> bool:
    """A wording of the entry's says the message, but the failing line is one its `unless_code`
    leaves to another library (OpenCV's findContours unpacked): no example of it resembles."""
    return any(
        s.unless_code_regex
        and s.regex.search(err.message)
        and _code_fits(s.unless_code_regex, failing(err.message))
        for s in entry.signatures
    )


def _by_text(entry: Entry) -> list[Signature]:
    """The signatures that recognise a message by its words alone: not those that need a
    line of code as well, nor those known by the exception's class, whose pattern is empty."""
    return [s for s in entry.signatures if not s.code and s.regex.pattern.strip("^$")]


# what a post wraps a pasted message in (Markdown's backticks, quotes, a closing full stop)
_QUOTING = " \t`'\".,;:"
_DIGITS = compile_cached(r"\d+")


def _numberless(message: str) -> str:
    """The first line with its numbers and file paths blanked out, as written otherwise (not
    masked: a retyped "dimension one" for "dimension 1" is another text here). A path is a
    value like a number: THC's "unknown error at .../THCGeneral.c:70" pins the file a signature
    names, and the same words at another file are that signature's to judge."""
    line = " ".join(message.split("\n", 1)[0].split()).strip(_QUOTING).lower()
    return _DIGITS.sub("#", _PATH.sub("<path>", line))


# a word with a directory separator in it, from where a word starts (each word is scanned once)
# to where a path ends (a quote, a bracket, a space)
_PATH = compile_cached(r"(?<![^\s'\"()\[\]<>=])[^\s'\"()\[\]<>=]*[/\\][^\s'\"()\[\]<>]*")


def _singular(numberless: str) -> str:
    """The plural ending of the noun a number counts dropped: it agrees with the number ("takes
    # positional argument" pinned 1, "takes # positional arguments" another count, one wording)."""
    return compile_cached(r"(# (?:[a-z]+ )?[a-z]+?)s\b").sub(r"\1", numberless)


def _same_keys(ours: frozenset[str], theirs: frozenset[str]) -> bool:
    """The same quoted names and identifiers, allowing one letter misread in a long one (a
    screenshot's "'indlces'"): 'dict' and 'list' stay different errors."""
    if ours == theirs:
        return True
    if len(ours) != len(theirs):
        return False
    from ..knowledge.fuzzy import Levenshtein

    return all(
        k in theirs or (len(k) >= 6 and any(Levenshtein.distance(k, t) <= 1 for t in theirs))
        for k in ours
    )


_WORDS = compile_cached(r"(?<![<\w])[a-z]{3,}(?![>\w])")


def _a_word_replaced(masked: str, squashed: str, ex: _Example) -> bool:
    """A word of the example is gone and another stands in its place: another message ("axis"
    for "dimension" is numpy's, not torch's), not a retyped one, whose words are all still there,
    misspelt, split or run together, and not a reworded one, which only adds words."""
    from ..knowledge.fuzzy import Levenshtein, fuzz

    def missing(words: list[str], text: str, other_words: list[str]) -> bool:
        return any(
            w not in text
            and fuzz.partial_ratio(w, text) < 80  # split, run together or misspelt
            and all(Levenshtein.distance(w, o) > 1 for o in other_words)  # "sane" for "same"
            for w in words
        )

    # the example's words from four letters, the message's from three: the word that replaced
    # one of the example's may be an acronym ("GPU is not available" is not "Numpy is not
    # available")
    ours = _WORDS.findall(masked)
    theirs = [w for w in _WORDS.findall(ex.masked) if len(w) > 3]
    return (missing(theirs, squashed, ours) and missing(ours, ex.squashed, theirs)) or (
        _slot_refilled(masked, ex.masked)
    )


# TH's argument checks (torch <= 1.0): "invalid argument <n>: " and the condition that failed
_TH_ARG_CHECK = r"invalid argument <num>: (\S+)"


def _another_argument_check(masked: str, example: str) -> bool:
    """TH printed every failed argument check as "invalid argument N: " and its condition, so
    two of them share their start and differ in the condition's subject: "k not in range for
    dimension" (topk's k) is not "dim not in range", however alike the rest reads."""
    ours = compile_cached(_TH_ARG_CHECK).match(masked)
    theirs = compile_cached(_TH_ARG_CHECK).match(example)
    return bool(ours and theirs and ours[1].lower() != theirs[1].lower())


def _slot_refilled(masked: str, example: str) -> bool:
    """Where one of the two names a device or a dtype, the other has a plain word between the
    same two words: "PyTorch was compiled without NumPy support" is not "... without CUDA
    support" (the example's <device>), and torch.cat's "... but got int" is not the collate
    wording "... but got NoneType" (the message's <dtype>), though every other word is there."""
    # the ends are padded: a slot may be the message's last word
    ours, theirs = ["", *masked.split(), ""], ["", *example.split(), ""]
    return _refills(ours, theirs) or _refills(theirs, ours)


def _refills(words: list[str], slotted: list[str]) -> bool:
    """`words` has a plain word where `slotted` has a <device> or <dtype> between the same two."""
    slots = {
        (slotted[i - 1], slotted[i + 1])
        for i in range(1, len(slotted) - 1)
        if slotted[i] in ("<device>", "<dtype>")
    }
    if not slots:
        return False
    return any(
        (words[j - 1], words[j + 1]) in slots and words[j].isalpha()
        for j in range(1, len(words) - 1)
    )


@dataclass(frozen=True)
class _Example:
    masked: str
    squashed: str
    keys: frozenset[str]
    unless: tuple[bool, ...]
    codes: list[str]
    pinned: str  # _numberless(message) when one of its entry's signatures recognises it, else ""


def _unless_side(entry: Entry, message: str) -> tuple[bool, ...]:
    return _side(_unlesses(entry), message)


def _unlesses(entry: Entry) -> tuple[re.Pattern[str], ...]:
    return tuple(s.unless_regex for s in entry.signatures if s.unless_regex)


def _side(unlesses: tuple[re.Pattern[str], ...], message: str) -> tuple[bool, ...]:
    return tuple(bool(u.search(message)) for u in unlesses)


class _IndexedExamples:
    """Every entry's examples, masked, in the knowledge base's order, in columns: `masked` and
    `squashed`, the two forms rapidfuzz compares in one call each, and `entries`, each example's
    entry position. The rest of an example is made into an _Example only for the few close
    enough to be checked word by word: making one for each of a thousand examples would cost a
    cold start milliseconds, and more with every entry."""

    def __init__(self, index: Index) -> None:
        # Parsing and masking ~1000 examples costs ~100 ms: done once per compiled index.
        columns = index.derived("fuzzy-examples", lambda: _mask_examples(index))
        self.entries: list[int] = columns["entries"]
        self.masked: list[str] = columns["masked"]
        self.squashed: list[str] = columns["squashed"]
        self._keys: list[list[str]] = columns["keys"]
        self._unless: list[list[bool]] = columns["unless"]
        self._codes: list[list[str]] = columns["codes"]
        self._pinned: list[str] = columns["pinned"]
        self._sorted: list[tuple[str, int]] | None = None  # (masked, position), for prefixes

    def starting_with(self, head: str) -> list[int]:
        """The positions of the examples whose masked message starts with `head`."""
        if self._sorted is None:
            self._sorted = sorted((m, i) for i, m in enumerate(self.masked))
        at = bisect.bisect_left(self._sorted, (head, -1))
        found = []
        while at < len(self._sorted) and self._sorted[at][0].startswith(head):
            found.append(self._sorted[at][1])
            at += 1
        return found

    def example(self, i: int) -> _Example:
        return _Example(
            self.masked[i],
            self.squashed[i],
            frozenset(self._keys[i]),
            tuple(self._unless[i]),
            self._codes[i],
            self._pinned[i],
        )


@cache
def _indexed_examples(index: Index) -> _IndexedExamples:
    return _IndexedExamples(index)


def _mask_examples(index: Index) -> dict[str, list[Any]]:
    """Each error of each entry's examples in columns (_IndexedExamples), as plain data for
    Index.derived to keep: its entry's position, masked and squashed message, key tokens,
    `unless` sides, error codes and whether a signature recognises it."""
    from .mask import key_tokens, mask, squash

    columns: dict[str, list[Any]] = {
        "entries": [],
        "masked": [],
        "squashed": [],
        "keys": [],
        "unless": [],
        "codes": [],
        "pinned": [],
    }
    for e, entry in enumerate(index.entries):
        unlesses = _unlesses(entry)
        for example in entry.examples:
            own, recognised = _own_errors(entry, parse(example).errors)
            for err in own:
                masked = mask(err.message.split("\n", 1)[0])
                columns["entries"].append(e)
                columns["masked"].append(masked)
                columns["squashed"].append(squash(masked))
                columns["keys"].append(sorted(key_tokens(masked)))
                columns["unless"].append(list(_side(unlesses, err.message)))
                columns["codes"].append(_error_codes(err.message))
                # a message a signature recognises pins the numbers it names (_pins_fit)
                columns["pinned"].append(_numberless(err.message) if recognised else "")
    return columns


def _own_errors(entry: Entry, errors: tuple[Error, ...]) -> tuple[tuple[Error, ...], bool]:
    """The errors of an example that say it is this entry's, which its signatures recognise by
    their words (_by_text), and True: a wrapper's example ("Caught FileNotFoundError in
    DataLoader worker process 0") also shows the error it wraps, and a bare FileNotFoundError
    resembling that one is no DataLoader's. All of them, and False, when no signature recognises
    any (an entry known only by its phrases, or by an exception's class). None when only a
    signature with a `code` condition does: that message alone names no entry ("'NoneType'
    object has no attribute 'norm'" is gradient-none's only on a `.grad` line)."""
    texts = _by_text(entry)
    by_message = tuple(e for e in errors if any(s.regex.search(e.message) for s in texts))
    if by_message:
        return by_message, True
    with_code = (s for s in entry.signatures if s.code)
    if any(s.regex.search(e.message) for s in with_code for e in errors):
        return (), False
    return errors, False


# A runtime check's finding as preflight and watch print it (runtime/findings.py, Finding.line):
# `✗ watch.step-no-update: optimizer.step() changed ...  [optimizer-step-no-update]`. The check
# has already decided which entry it saw; pasted back, the line names that entry.
_FINDING_LINE = compile_cached(
    r"(?m)^[^\S\n]*(?:\[diagnoser:[^\]\n]{1,80}\][^\S\n]*|[\w.]*TrainingFindingError:[^\S\n]*)?"
    r"[✗!i][^\S\n]+"
    r"(?:watch|optim|grad|data|model|loss)\.[a-z0-9.-]+:[^\n]*?[^\S\n]\[(?P<entry>[a-z0-9][a-z0-9-]*)\]"
    r"[^\S\n]*$"
)
_FINDING_SCORE = 95


def _finding_matches(text: str, index: Index) -> list[Match]:
    if "]" not in text:
        return []
    out: list[Match] = []
    for found in _FINDING_LINE.finditer(text):
        entry = index.by_id.get(found["entry"])  # decoded only for a text with a finding
        if entry is not None and all(m.entry is not entry for m in out):
            out.append(Match(entry, _FINDING_SCORE - min(len(out), 5), None, "finding"))
    return out


# The notes torch appends to every CUDA error, whichever it was ("Compile with
# `TORCH_USE_CUDA_DSA` to enable device-side assertions."): words of no symptom, and no
# device-side assert either, when the line naming the error was cut off.
_CUDA_ERROR_NOTES = compile_cached(
    r"(?m)^[^\S\n]*(?:CUDA kernel errors might be asynchronously reported at some other API call"
    r"|For debugging consider passing CUDA_LAUNCH_BLOCKING=1"
    r"|Compile with `?TORCH_USE_CUDA_DSA`? to enable device-side assertions)[^\n]*$"
)
# A check that passed, as preflight prints it ("  ✓ no gradient is exactly zero"): it says what
# is fine, and its words must not be read as a symptom described.
_PASSED_CHECK = compile_cached(r"(?m)^[ \t]*✓ [^\n]*$")
# A sentence that makes the behaviour the crash's cause ("出现nan值，导致AssertionError", "the
# loss goes nan, which causes a crash"): the behaviour is the post's subject, the crash its end.
# A question about the cause ("what causes this error") ties nothing.
_CAUSED_THE_CRASH = compile_cached(
    r"(?i)[^\W\d_][^\n。！？.!?]{0,60}?(?<!什么)(?:导致|引起|造成|引发)[^\n。！？]{0,20}?"
    r"(?:error|exception|assert|报错|出错|错误|异常|崩溃|中断)"
    r"|\b(?<!what )(?<!which one )(?:caus(?:es|ed|ing)|lead(?:s|ing)? to|led to"
    r"|result(?:s|ed|ing)? in|trigger(?:s|ed|ing)?)\b[^\n.!?]{0,30}?"
    r"\b(?:error|exception|crash(?:es)?|assert(?:ion)?(?:error)?)\b"
)


# Symptoms of a whole run ("the loss is 0 from the start"): a log that reads the loss often enough
# and does not show it denies it, even where a sentence (or one of the log's own lines, "epoch 3
# loss: 0.0, acc: 1.0" after losses that fell) says it. An event (a nan) may come after the paste.
# So may an explosion, but a log's own "grad_norm: nan" between finite norms is a step that
# fp16's loss scaling skipped, which the norms read as a series show for what it is.
_WHOLE_RUN = frozenset({"zero", "grad-explodes"})
# A sentence is its first few thousand characters: a few dozen warnings at most are printed there.
_MAX_WARNINGS_BLANKED = 50
_MIN_WARNING_BLANKED = 20


def _symptom_matches(trace: Trace, index: Index, has_exception: bool, crashed: bool) -> list[Match]:
    text = trace.text
    if "✓" in text:
        text = _PASSED_CHECK.sub("", text)
    if "CUDA_LAUNCH_BLOCKING" in text or "TORCH_USE_CUDA_DSA" in text:
        text = _CUDA_ERROR_NOTES.sub("", text)
    log = read_training_log(text)
    findings = detect(log)
    learns = learning(log)
    # Users describe a problem in a sentence; a pasted traceback is no description.
    said = _without_frame_sources(_without_printed_warnings(text[:_MAX_SENTENCE], trace))
    if not has_exception:
        text = compile_cached(_UNSAID).sub(" ", said)
    sentence = normalise(text[:_MAX_SENTENCE], index.vocabulary) if not has_exception else None
    if not (findings or sentence):
        return []  # no log numbers and no sentence: nothing below could match
    # Typos are corrected towards the symptoms' words only: look for names in the text as written.
    named = (
        named_entries(fold(text[:_MAX_SENTENCE]), index) | named_entries(sentence, index)
        if sentence
        else set()
    )
    cued = _named_with_their_cue(said, named, index) if sentence and text != said else set()
    named |= cued
    described = described_symptoms(sentence, index) if sentence else set()
    # only when no phrase is said word for word: those are surer, and a sentence names few entries
    retold = paraphrased_entries(sentence, index) if sentence and not named else set()
    if sentence and named and not described:
        # a generic phrase ("维度不匹配") inside a sentence that retells a narrower error: the
        # narrower one alone
        retold = retold_beyond(sentence, index, named)
        if retold:
            named = set()
    guessed = (
        _only_guessed(text, (named | described | retold) - cued, index)
        # a name that holds the cue blanked in `text` is read in the sentence as written
        | _only_guessed(said, cued, index)
        if sentence
        else set()
    )
    told = _told_by_an_error(sentence, described - named, named, index) if sentence else set()
    denied = _only_denied(text, named | described | retold, index) if sentence else set()
    # a post about a run that hangs names other problems only in passing
    aside = _beside_a_hang(said, named | described | retold, index) if sentence else set()
    out = []
    # Only a symptom entry matches a log, or a sentence that names no entry; the entries the
    # sentence names or describes, in the knowledge base's order, and no other is read.
    positions = {index.positions[i] for i in named | described | retold}
    for entry in map(index.entry, sorted(positions.union(index.symptomatic))):
        symptoms = entry.symptoms
        finding = findings.get(symptoms.get("log_signal") or "") if symptoms else None
        if finding:
            out.append(Match(entry, finding.score, None, "log", values=finding.values))
        elif entry.id not in described and entry.id not in named and entry.id not in retold:
            continue  # the sentence says nothing of it (its patterns are read only when it does)
        elif crashed and entry.kind == "symptom" and not _CAUSED_THE_CRASH.search(said):
            # a traceback, cut before its message, says the run crashed: the sentence may name
            # the error it lost ("报错说我显存不够"), but a training behaviour it tells is context
            # ("我自己的模型太小，无法收敛", then the crash on another model), as a whole
            # traceback's is, whose sentence is not read at all
            continue
        elif entry.id in denied:
            continue  # named only where the text rules it out: scored as if not named
        elif entry.id in aside:
            continue  # said only beside the hang the post is about
        elif _contradicted(symptoms, sentence):
            continue  # the sentence says what the entry assumes is not so
        elif _said_only_where_ruled_out(entry, sentence, index):
            continue  # said only in a clause that names it as something else (a test)
        elif (
            symptoms
            and symptoms.get("log_signal") in _WHOLE_RUN
            and shown_otherwise(log, symptoms["log_signal"], findings)
        ):
            continue  # the log's own readings show the run otherwise, whatever a line of it says
        elif learns and symptoms and symptoms.get("log_signal") == "flat":
            # the log's training loss falls at every reading: whatever metric the sentence calls
            # stuck, the model learns, and no entry a stuck metric shows is answered from words
            continue
        elif entry.id in guessed:
            if entry.kind == "error":
                continue  # an error is known by its message: one asked about was not seen
            if symptoms and shown_otherwise(log, symptoms.get("log_signal") or "", findings):
                continue  # a guess the log's own numbers deny
            out.append(Match(entry, _GUESSED_SCORE, None, "guess"))
        elif entry.id in told:
            out.append(Match(entry, _TOLD_SCORE, None, "phrase"))
        elif entry.id in described:
            # a sentence that is also one of its phrases word for word is a little surer
            score = _PHRASE_SCORE + (entry.id in named)
            out.append(Match(entry, score, None, "phrase"))
        elif entry.id in named:
            out.append(Match(entry, _NAMED_SCORE, None, "phrase"))
        elif entry.id in retold:
            out.append(Match(entry, _PARAPHRASE_SCORE, None, "phrase"))
    if out and no_neural_network(said):
        return []  # boosted trees or a statistical fit: none of the entries' causes is theirs
    if out and another_program(trace.as_pasted[:_MAX_SENTENCE], behaviour=True):
        # TensorFlow's log, another framework named or imported in a post that never names
        # torch: its fixes are that framework's (the labelling rule since heldout5). Keras'
        # progress bar alone is no sign here: PyTorch loops print it too
        return []
    if out and all(m.method == "guess" for m in out) and _about_poor_results(said):
        return []
    return _narrower_first(_guesses_below_the_log(out))


# A traceback's frame line and the source line printed under it, which is neither another frame
# nor the exception a traceback printed without its source (a log's timestamp may start both lines;
# pytest's short report writes the frame as "file.py:6: in step")
_FRAME_SOURCE = compile_cached(
    r'(?m)^((?:[^\n"]{0,80}\bFile "[^"\n]{1,500}", line \d[^\n]*'
    r"|[^\s:]{1,500}\.py:\d{1,9}: in \S{1,200}[ \t]*)\n)"  # pytest's short report
    r'(?![^\n"]{0,80}\bFile ")(?![ \t]*[\w.]{0,200}(?:Error|Exception|Warning)\b)[^\n]*'
)


def _without_frame_sources(said: str) -> str:
    """The sentence without the source lines a traceback prints under its frames: the program's
    code, no description of the user's (`torch.load(ckpt, weights_only=True)` in ComfyUI's
    frames says nothing of weights_only's error)."""
    return _FRAME_SOURCE.sub(r"\1", said) if 'File "' in said or ".py:" in said else said


_PRINTED_WARNING = r"(?m)^[ \t]*Warning: [^\n]*"


def _without_printed_warnings(said: str, trace: Trace) -> str:
    """The sentence without the words of the warnings a program printed in it: each is read as a
    warning, by its own signatures (or is a program's own), and is no description of the
    user's. torch.load's "FutureWarning: You are using `torch.load` with `weights_only=False` ...
    We recommend you start setting `weights_only=True`" names weights_only=True, though no load
    failed."""
    blanked = 0
    for err in trace.errors:
        if err.kind != "warning" or not err.exc_type:
            continue  # a paste of warnings only, read whole as one, is the user's own text too
        if len(err.message) < _MIN_WARNING_BLANKED:
            continue  # a word or two could be the user's own words as well
        said = said.replace(err.message, " ")
        blanked += 1
        if blanked == _MAX_WARNINGS_BLANKED:
            break
    # nor is a line a program printed as its own warning, with no class ("Warning: Skipped loading
    # some keys due to shape mismatch: {...}", seed-vc's loader)
    return compile_cached(_PRINTED_WARNING).sub(" ", said)


def _told_by_an_error(
    sentence: str, described: set[str], named: set[str], index: Index
) -> set[str]:
    """The symptoms of `described` that the sentence describes only by an error it names as
    the subject: "Training is stopped because of CUDA OOM error after few epochs" fits the leak's
    "OOM after some epochs", but what it reports is the OOM and when it struck. Memory said to
    grow ("the GPU memory increases up to out of memory") is the leak's own subject."""
    errors = [e for e in named if index.entry(index.positions[e]).kind == "error"]
    if not (described and errors):
        return set()
    opens = [compile_cached(_phrases_pattern(e, index)) for e in errors]
    told = set()
    for entry_id in described:
        symptoms = index.by_id[entry_id].symptoms
        starts = [
            m.start()
            for p in (symptoms or {}).get("patterns", ())
            for m in compile_cached(p).finditer(sentence)
        ]
        if starts and all(any(o.match(sentence, i) for o in opens) for i in starts):
            told.add(entry_id)
    return told


@cache
def _phrases_pattern(entry_id: str, index: Index) -> str:
    """Any of the entry's phrases, as whole words, in a lower-case sentence."""
    phrases = sorted(
        {compact(fold(p)) for lang in ("en", "zh") for p in index.by_id[entry_id].phrases[lang]},
        key=len,
        reverse=True,
    )
    return "|".join(
        r"(?<![a-z0-9])" + r"\s+".join(map(re.escape, p.split())) + r"(?![a-z0-9])" for p in phrases
    )


def _guesses_below_the_log(found: list[Match]) -> list[Match]:
    """A guess ranks below what the pasted log shows, however few its readings (three identical
    epochs under "it seems that there is a gradient vanishing issue"): the numbers are the
    report. Said as a phrase from here on, like any other sentence's answer."""
    shown = [m.score for m in found if m.method == "log"]
    ceiling = min(shown) - 1 if shown else _GUESSED_SCORE
    return [
        replace(m, score=min(m.score, ceiling), method="phrase") if m.method == "guess" else m
        for m in found
    ]


def _only_guessed(text: str, found: set[str], index: Index) -> set[str]:
    """The entries of `found` that the text names or describes only inside a guess it asks about
    (_GUESSED) or an opinion it holds (_HEDGED): read again without those, it no longer says
    them."""
    if not found:
        return set()
    guess, hedge = compile_cached(_GUESSED), compile_cached(_HEDGED)
    lower = text.lower()
    hedged = any(cue in lower for cue in _HEDGE_CUES) and hedge.search(text) is not None
    if not hedged and guess.search(text) is None:
        return set()
    plain = guess.sub(" ", text)
    return found - _said(hedge.sub(" ", plain) if hedged else plain, found, index)


# A run that hangs, as a post's subject says it: the training, program or process hangs, freezes
# or is stuck (at a step, an epoch, a count), 训练/程序/多卡…卡住/卡死/不动了. Not a metric that is
# stuck ("the loss is stuck at 0.69", "loss卡住"), nor a training "stuck on a fixed value" (its
# metrics are): that is a symptom of its own.
_HANG = (
    r"(?i)\b(?:training|train|process(?:es)?|program|script|job|code|run|it|hvd|horovod)\b"
    r"(?:(?!\b(?:loss|accuracy|acc|metric)\b)[^\n.!?]){0,30}?"
    r"\b(?:hangs?|hung|hanging|freezes|froze|frozen|(?:is|gets?|got|has\s+been|have\s+been|was|been)"
    r"\s+stuck)\b(?!\s+(?:on|at)\s+(?:an?\s+|the\s+)?(?:(?:fixed|constant|same|certain)\s+)?values?\b)"
    r"|^[^\S\n]*(?:hangs?|hanging|stuck)\b"
    r"|\bstuck\s+(?:at|in|on)\s+(?:[\[【(]?\d+\s*/\s*\d+|(?:the\s+)?(?:epoch|step|iter\w*|batch)\b)"
    r"|(?:训练|程序|进程|服务器|代码|运行|多卡|单卡|多机|epoch|step|iter|batch|轮|^)"
    r"(?:(?!loss|损失|准确率|精度|acc)[^\n。！？，,]){0,12}?(?:卡死|卡住|卡主|不动了)"
)

# Every branch of _HANG holds one of these: a subject without any is read no further.
_HANG_CUES = ("hang", "hung", "froze", "freezes", "stuck", "卡死", "卡住", "卡主", "不动了")


def _beside_a_hang(said: str, found: set[str], index: Index) -> set[str]:
    """The entries of `found` a post whose subject (its title and first sentence) is a run that
    hangs says only further on: an OOM remarked in passing ("num_workers设置为8（oom）、
    设置为4、1、0都会卡住"), a warning or a loss value in the pasted log. A hang with no
    message is no entry's (a deadlock, a collective waiting for a rank, a dead worker): what
    else the post mentions is not why it hangs. What the subject itself says stays, and so
    does an entry one of whose phrases is a hang ("stuck in allreduce", "NCCL 卡住"): it
    explains one."""
    if not found:
        return set()
    subject = _subject(said)
    lower = subject.lower()
    if not any(cue in lower for cue in _HANG_CUES) or not compile_cached(_HANG).search(subject):
        return set()
    # a cause the subject only guesses at ("My guess is that it perhaps might be ... CUDA OOM") is
    # no more its subject than a remark further on
    plain = compile_cached(_HEDGED).sub(" ", compile_cached(_GUESSED).sub(" ", subject))
    return {e for e in found - _said(plain, found, index) if not _explains_a_hang(e, index)}


_HANG_PHRASE = r"(?i)\bhangs?\b|\bhung\b|\bhanging\b|\bstuck\s+in\b|卡住|卡死|卡在"
_METRIC_WORD = r"(?i)loss|损失|acc|精度|准确率"


def _explains_a_hang(entry_id: str, index: Index) -> bool:
    """One of the entry's phrases is a run that hangs, not a metric that is stuck."""
    phrases = index.by_id[entry_id].phrases
    return any(
        compile_cached(_HANG_PHRASE).search(p) and not compile_cached(_METRIC_WORD).search(p)
        for lang in ("en", "zh")
        for p in phrases[lang]
    )


# A line that only shows a picture ("[screenshot]", a Markdown image, an <img> tag) says nothing.
_PICTURE_LINE = r"^[^\S\n]*(?:\[screenshot\]|!\[[^\]\n]*\]\([^)\n]*\)|<img[^>\n]*>)[^\S\n]*$"


def _subject(said: str) -> str:
    """A post's subject: its first line (an issue's title) and the first sentence after it,
    pictures left out."""
    picture = compile_cached(_PICTURE_LINE)
    lines = [line for line in said.split("\n", 12)[:12] if line.strip() and not picture.match(line)]
    if not lines:
        return ""
    sentence = compile_cached(r"^[^\n]*?(?:[。！？!?]|\.(?=\s)|$)")
    first = sentence.match(lines[1] if len(lines) > 1 else "")
    return lines[0] + "\n" + (first[0] if first else "")


# Results said to be poor in general, by the post's subject: "Bad results", "the results were very
# poor", "all the training results ... are worse than the test results", "效果不好", "训练效果很差".
# Poor results have as many causes as a model has parts: a family the post only believes in or
# asks about beside them ("A bit underfitting", "我觉得是过拟合") is the writer's guess at the
# cause, no answer.
_BAD_RESULTS = (
    r"(?i)\b(?:bad|poor|worse|terrible|awful|unsatisfactory|abnormal|strange|weird|wrong)\b"
    r"[^\n.!?]{0,20}?\b(?:results?|performance)\b"
    r"|\b(?:results?|performance)\b[^\n.!?]{0,40}?\b(?:(?:is|are|was|were|seems?|looks?|get)"
    r"\s+(?:very\s+|so\s+|really\s+|much\s+)?(?:bad|poor|worse|terrible|awful|not\s+good)"
    r"|(?:isn|aren|wasn|weren)[’']?t\s+(?:very\s+|so\s+)?good"
    r"|not\s+(?:good|normal|ideal|satisfactory))\b"
    r"|(?:效果|结果|性能|表现)(?:很|非常|特别|太|也|都|还是|比较)?(?:不好|差|不佳|不理想|不行|不太好|一般|不正常|奇怪|异常)"
)


def _about_poor_results(said: str) -> bool:
    return compile_cached(_BAD_RESULTS).search(_subject(said)) is not None


def _only_denied(text: str, found: set[str], index: Index) -> set[str]:
    """The entries of `found` that the text names only inside a denial (_DENIED, _DENIED_AFTER):
    their name is in a denied clause, and read again without those clauses the text no longer
    says them. An entry one of whose names holds the cue itself ("no CUDA GPUs are available",
    "没有收敛") is said, not denied."""
    if not found:
        return set()
    # (the denied span's start and end, its scope, its cue, whether the scope comes before it)
    denials = [
        (d.start(), d.end(), d["scope"], d[0][: d.start("scope") - d.start()], False)
        for d in compile_cached(_DENIED).finditer(text)
        if text[d.end() : d.end() + 1] not in ("?", "？") and d["scope"][-1] not in "吗么"
    ]
    denials += _named_before(text)
    if not denials:
        return set()
    denied: set[str] = set()
    for start, end, scope, cue, before in denials:
        sentence = normalise(scope, index.vocabulary)
        # what the clause names, or describes ("no NaN appears": nan-loss's pattern, no phrase)
        named = named_entries(fold(scope), index) | named_entries(sentence, index)
        named |= described_symptoms(sentence, index)
        if before:
            # the name before the cue: what the text no longer says without it and its cue ("NaN
            # never appears", "nan 没有出现，loss…" said the loss is nan; "they do not vanish",
            # whose cue is the symptom's own verb) is what is denied
            rest = text[:start] + " " + text[end:]
            named |= found - _said(rest, found, index)
        else:
            # the clause's subject before the cue, read with what is denied of it:
            # "loss没有出现nan" denies "loss出现nan", "显存没有泄漏" denies "显存泄漏";
            # "loss没有下降" denies "loss下降", which describes no entry: the complaint stays
            subject = text[_clause_start(text, start) : start]
            affirmed = normalise(subject + scope, index.vocabulary)
            named |= named_entries(affirmed, index) | described_symptoms(affirmed, index)
        cue = compact(fold(cue)).strip()
        # a name holding the cue may run back past the clause's start ("torch.symeig 没有了")
        said = fold(text[max(0, start - _CLAUSE_BACK) if before else start : end])
        denied |= {e for e in named & found if not _named_by_the_cue(e, cue, said, index)}
    if not denied:
        return set()
    plain, last = [], 0
    for start, end, *_ in sorted(denials):
        plain.append(text[last : max(start, last)])
        last = max(end, last)
    plain.append(text[last:])
    return denied - _said(" ".join(plain), denied, index)


# how far back from a denial after the name its clause is read
#
_CLAUSE_BACK = 60


def _clause_start(text: str, at: int) -> int:
    """Where the clause holding position `at` starts (at most _CLAUSE_BACK before it)."""
    back = max(0, at - _CLAUSE_BACK)
    starts = [m.end() for m in compile_cached(_CLAUSE_START).finditer(text, back, at)]
    return starts[-1] if starts else back


def _named_before(text: str) -> list[tuple[int, int, str, str, bool]]:
    """The denials said after the name (_DENIED_AFTER): (the clause's start, the cue's end, the
    clause before the cue, the cue, True); none under a condition (_CONDITION_AFTER/_BEFORE),
    none asked about."""
    found = []
    for d in compile_cached(_DENIED_AFTER).finditer(text):
        after = text[d.end() : d.end() + 12]
        if after[:1] in ("?", "？", "吗") or compile_cached(_CONDITION_AFTER).match(after):
            continue
        start = _clause_start(text, d.start())
        scope = text[start : d.start()]
        sentence = text[max(0, start - 40) : start]
        if not scope.strip() or compile_cached(_CONDITION_BEFORE).search(sentence + scope):
            continue
        found.append((start, d.end(), scope, d[0], True))
    return found


def _said(plain: str, wanted: set[str], index: Index) -> set[str]:
    """The entries a text says, in a phrase, a symptom's pattern or (when one of `wanted` is
    not among those) a paraphrase."""
    sentence = normalise(plain, index.vocabulary)
    said = named_entries(fold(plain), index) | named_entries(sentence, index)
    said |= described_symptoms(sentence, index)
    if wanted - said:
        said |= paraphrased_entries(sentence, index)
    return said


def _named_by_the_cue(entry_id: str, cue: str, denial: str, index: Index) -> bool:
    """One of the entry's phrases holds the cue and is said in the denial: the negation is its
    name ("no cuda gpus are available"), not a denial of it."""
    said = compact(denial)
    phrases = index.by_id[entry_id].phrases
    return any(
        cue in (p := compact(fold(phrase))) and p in said
        for lang in ("en", "zh")
        for phrase in phrases[lang]
    )


def _named_with_their_cue(said: str, named: set[str], index: Index) -> set[str]:
    """The entries named in the sentence as written whose own phrase holds the cue blanked
    ("load cuda checkpoint without gpu"): the words are their name, not something denied."""
    unsaid = compile_cached(_UNSAID)
    return {
        entry_id
        for entry_id in named_entries(fold(said), index) - named
        if any(
            unsaid.search(p) for lang in ("en", "zh") for p in index.by_id[entry_id].phrases[lang]
        )
    }


def _contradicted(symptoms: dict[str, Any] | None, sentence: str | None) -> bool:
    """The sentence says the behaviour is not the entry's (memory that rises, then stays flat),
    or names what rules the entry out (host RAM for a GPU-memory entry) and nothing that would
    bring it back (the GPU itself)."""
    if not (symptoms and sentence):
        return False
    ruled_out: list[str] = symptoms.get("ruled_out_by") or []
    contradicted: list[str] = symptoms.get("contradicted_by") or []
    if not (ruled_out or contradicted):
        return False  # most entries: called for each of them on every sentence

    # the sentence as written and, when they differ, with CJK spaced apart from ASCII words
    readings = dict.fromkeys((sentence, spaced_apart(sentence)))

    def said(patterns: list[str]) -> bool:
        return any(compile_cached(p).search(r) for p in patterns for r in readings)

    if ruled_out and said(ruled_out):
        return True
    return (
        bool(contradicted) and said(contradicted) and not said(symptoms.get("confirmed_by") or [])
    )


# Where a clause ends, for `ruled_out_in_clause_by`: its punctuation (a decimal point is none) and
# the words that turn to something else ("I can overfit one batch, but the val loss rises").
_CLAUSE_BOUNDARY = (
    r"[!?;,\n。！？；，]|\.(?!\d)|\b(?:but|however|though|although|whereas)\b|但|可是|然而|不过"
)


def _said_only_where_ruled_out(entry: Entry, sentence: str | None, index: Index) -> bool:
    """The entry's `ruled_out_in_clause_by` words rule out each clause they are in; read without
    those clauses, the sentence no longer says the entry."""
    voids = (entry.symptoms or {}).get("ruled_out_in_clause_by")
    if not (voids and sentence):
        return False
    hits = [m for p in voids for m in compile_cached(p).finditer(sentence)]
    if not hits:
        return False
    bounds = [0, *(m.end() for m in compile_cached(_CLAUSE_BOUNDARY).finditer(sentence))]
    bounds.append(len(sentence))
    kept, voided = [], False
    for start, end in itertools.pairwise(bounds):
        if any(start <= h.start() < end for h in hits):
            kept.append(" ")
            voided = True
        else:
            kept.append(sentence[start:end])
    return voided and entry.id not in _said("".join(kept), {entry.id}, index)


def _narrower_first(found: list[Match]) -> list[Match]:
    """A sentence that describes a symptom and a broader one it is a case of ("the loss
    oscillates and never converges") is about the narrower one: the broader ranks below it.
    Not when the narrower one is said less surely (only guessed at: "the accuracy stays at 78.6.
    Is my model overfitting."): the broader one is what the sentence reports."""
    said = {m.entry.id: m.score for m in found if m.method == "phrase"}
    cap: dict[str, int] = {}
    for m in found:
        for broader in (m.entry.symptoms or {}).get("narrows", ()) if m.method == "phrase" else ():
            if broader in said and m.score >= said[broader]:
                cap[broader] = min(cap.get(broader, 100), m.score - 2)
    return [replace(m, score=cap[m.entry.id]) if m.entry.id in cap else m for m in found]
