"""One parsed file as the rules see it: its tree, its imports resolved to qualified names, the
nodes the rules look for collected in a single walk, and the source to quote."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

# Conventional aliases, for code whose imports are elsewhere (a notebook's earlier cell, a star
# import): `nn.Linear` means torch.nn.Linear even when `from torch import nn` is not in this file.
CONVENTIONS = {
    "nn": "torch.nn",
    "F": "torch.nn.functional",
    "optim": "torch.optim",
    "transforms": "torchvision.transforms",
    "T": "torchvision.transforms",
}
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class Context:
    def __init__(self, tree: ast.Module, source: str) -> None:
        self.tree = tree
        self.lines = source.splitlines()
        self.aliases: dict[str, str] = {}
        self.calls: list[ast.Call] = []
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        self.classes: list[ast.ClassDef] = []
        self.loops: list[ast.For | ast.AsyncFor | ast.While] = []
        self.strings: list[ast.Constant] = []
        self.expr_stmts: list[ast.Expr] = []
        self.assigns: list[ast.Assign] = []
        self.imports: list[ast.Import | ast.ImportFrom] = []
        self.parents: dict[ast.AST, ast.AST] = {}
        self.children: dict[ast.AST, list[ast.AST]] = {}
        self._constructed: dict[str, set[str]] | None = None
        self._qualnames: dict[ast.AST, str | None] = {}
        self._bindings: dict[ast.AST, dict[str, list[ast.expr | None]]] = {}
        parents = self.parents
        children = self.children
        stack: list[ast.AST] = [tree]
        while stack:  # one pass: each node's children are listed once, for both jobs
            node = stack.pop()
            kids = list(ast.iter_child_nodes(node))
            children[node] = kids
            for child in kids:
                parents[child] = node
            stack.extend(kids)
            kind = type(node)
            if kind is ast.Call:
                self.calls.append(node)  # type: ignore[arg-type]
            elif kind is ast.Constant:
                if isinstance(node.value, str):  # type: ignore[attr-defined]
                    self.strings.append(node)  # type: ignore[arg-type]
            elif kind is ast.Expr:
                self.expr_stmts.append(node)  # type: ignore[arg-type]
            elif kind is ast.Assign:
                self.assigns.append(node)  # type: ignore[arg-type]
            elif kind in (ast.FunctionDef, ast.AsyncFunctionDef):
                self.functions.append(node)  # type: ignore[arg-type]
            elif kind is ast.ClassDef:
                self.classes.append(node)  # type: ignore[arg-type]
            elif kind in (ast.For, ast.AsyncFor, ast.While):
                self.loops.append(node)  # type: ignore[arg-type]
            elif kind in (ast.Import, ast.ImportFrom):
                self.imports.append(node)  # type: ignore[arg-type]
                self._add_import(node)  # type: ignore[arg-type]

    def _add_import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    self.aliases[a.asname] = a.name
                else:
                    top = a.name.split(".", 1)[0]
                    self.aliases[top] = top
        elif node.module and not node.level:
            for a in node.names:
                if a.name != "*":
                    self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"

    # names ---------------------------------------------------------------------------------------

    def qualname(self, node: ast.AST) -> str | None:
        """`F.softmax` -> 'torch.nn.functional.softmax' through this file's imports; None for
        anything that is not a dotted name. Memoised: several rules ask about every call."""
        try:
            return self._qualnames[node]
        except KeyError:
            found = self._qualnames[node] = self._resolve(node)
            return found

    def _resolve(self, node: ast.AST) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        base = self.aliases.get(node.id) or CONVENTIONS.get(node.id) or node.id
        parts.append(base)
        return ".".join(reversed(parts))

    def called(self, call: ast.Call, *names: str) -> bool:
        """Whether `call` calls one of `names`, given as qualified names ('torch.load')."""
        return self.qualname(call.func) in names

    def constructed(self) -> dict[str, set[str]]:
        """Each name (`criterion`, `self.opt`) bound anywhere in the file to a call of a dotted
        name, with every such callee: `criterion = nn.CrossEntropyLoss()` gives
        {'criterion': {'torch.nn.CrossEntropyLoss'}}."""
        if self._constructed is None:
            found: dict[str, set[str]] = {}
            for node in self.assigns:
                if isinstance(node.value, ast.Call):
                    callee = self.qualname(node.value.func)
                    if callee:
                        for t in node.targets:
                            n = name_of(t)
                            if n:
                                found.setdefault(n, set()).add(callee)
            self._constructed = found
        return self._constructed

    def instance_of(self, node: ast.AST, classes: frozenset[str]) -> bool:
        """`node` is `Cls(...)` for one of `classes`, or a name every construction of which in
        this file is one of them."""
        if isinstance(node, ast.Call):
            return self.qualname(node.func) in classes
        n = name_of(node)
        built = self.constructed().get(n) if n else None
        return bool(built) and built <= classes  # type: ignore[operator]

    def bindings(self, scope: ast.AST) -> dict[str, list[ast.expr | None]]:
        """Names bound in a function (or the module) body: the value of each plain assignment,
        None for any other binding (a parameter, a loop target, an augmented assignment)."""
        cached = self._bindings.get(scope)
        if cached is not None:
            return cached
        found: dict[str, list[ast.expr | None]] = {}
        body = scope.body if isinstance(scope, (*FUNCTIONS, ast.Module)) else []
        if isinstance(scope, FUNCTIONS):
            a = scope.args
            for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
                if arg is not None:
                    found.setdefault(arg.arg, []).append(None)
        for node in self.walk_local(body):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    simple = isinstance(t, ast.Name | ast.Attribute)
                    for n in assigned_names(t):
                        found.setdefault(n, []).append(node.value if simple else None)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
                for n in assigned_names(node.target):
                    value = node.value if not isinstance(node, ast.AugAssign) else None
                    found.setdefault(n, []).append(value)
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                for n in assigned_names(node.target):
                    found.setdefault(n, []).append(None)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                for n in assigned_names(node.optional_vars):
                    found.setdefault(n, []).append(None)
        self._bindings[scope] = found
        return found

    def value_of(self, node: ast.AST) -> ast.expr | None:
        """The expression a name stands for, when its scope binds it exactly once, by a plain
        assignment; else None (bound several times, or by a parameter or a loop)."""
        n = name_of(node)
        if n is None:
            return None
        values = self.bindings(self.scope_of(node)).get(n, [])
        return values[0] if len(values) == 1 else None

    def reaching(self, node: ast.AST) -> ast.expr | None:
        """The expression a name stands for where it is used: its single binding in the scope,
        else the nearest earlier statement of the same block that assigns it (`x = x.transpose(1,
        2)` just before `x.view(...)`), provided nothing in between binds it otherwise."""
        single = self.value_of(node)
        if single is not None or not isinstance(node, ast.Name):
            return single
        stmt: ast.AST = node
        while not isinstance(stmt, ast.stmt):
            parent = self.parents.get(stmt)
            if parent is None:
                return None
            stmt = parent
        block = self._block_of(stmt)
        if block is None:
            return None
        index = next(i for i, s in enumerate(block) if s is stmt)
        for earlier in reversed(block[:index]):
            if (
                isinstance(earlier, ast.Assign)
                and len(earlier.targets) == 1
                and isinstance(earlier.targets[0], ast.Name)
                and earlier.targets[0].id == node.id
            ):
                return earlier.value
            if any(
                isinstance(n, ast.Name) and n.id == node.id and isinstance(n.ctx, ast.Store)
                for n in self.walk_local([earlier])
            ):
                return None
        return None

    def _block_of(self, stmt: ast.stmt) -> list[ast.stmt] | None:
        parent = self.parents.get(stmt)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and any(s is stmt for s in block):
                return block
        return None

    def helper(self, call: ast.Call) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The function a call runs when it is defined in this file: `reset_grad()` for a
        module-level `def reset_grad`, `self.reset()` for a method of the enclosing class."""
        f = call.func
        if isinstance(f, ast.Name):
            found = [d for d in self.tree.body if isinstance(d, FUNCTIONS) and d.name == f.id]
            return found[-1] if found else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
            cls = next((a for a in self.ancestors(call) if isinstance(a, ast.ClassDef)), None)
            if cls is not None:
                found = [d for d in cls.body if isinstance(d, FUNCTIONS) and d.name == f.attr]
                return found[-1] if found else None
        return None

    def walk_calls_into(self, nodes: Iterable[ast.AST], depth: int = 2) -> Iterator[ast.AST]:
        """`walk_local`, also entering the bodies of the helpers of this file that the code calls
        (to `depth` levels): a `reset_grad()` that calls `optimizer.zero_grad()` counts."""
        seen: set[ast.AST] = set()

        def go(block: Iterable[ast.AST], level: int) -> Iterator[ast.AST]:
            for node in self.walk_local(block):
                yield node
                if level and isinstance(node, ast.Call):
                    target = self.helper(node)
                    if target is not None and target not in seen:
                        seen.add(target)
                        yield from go(target.body, level - 1)

        yield from go(nodes, depth)

    # tree helpers --------------------------------------------------------------------------------

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        parent = self.parents.get(node)
        while parent is not None:
            yield parent
            parent = self.parents.get(parent)

    def scope_of(self, node: ast.AST) -> ast.AST:
        """The function (or the module) whose body holds `node`."""
        for a in self.ancestors(node):
            if isinstance(a, FUNCTIONS):
                return a
        return self.tree

    def under_no_grad(self, node: ast.AST) -> bool:
        """Inside `with torch.no_grad():` / `torch.inference_mode()`, or a function decorated so,
        with no `torch.enable_grad()` in between. A nested function runs when it is called, so
        the search stops at the first function."""
        for a in self.ancestors(node):
            if isinstance(a, ast.With | ast.AsyncWith):
                for item in reversed(a.items):  # the last context entered decides
                    state = self._grad_state(item.context_expr)
                    if state is not None:
                        return not state
            elif isinstance(a, FUNCTIONS):
                states = [self._grad_state(d) for d in a.decorator_list]
                return any(s is False for s in states)
            elif isinstance(a, ast.Lambda | ast.ClassDef):
                return False
        return False

    def _grad_state(self, expr: ast.expr) -> bool | None:
        """False for a context that turns gradients off, True for one that turns them on."""
        if isinstance(expr, ast.Call):
            if self.qualname(expr.func) == "torch.set_grad_enabled" and expr.args:
                arg = expr.args[0]
                return (
                    arg.value
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, bool)
                    else None
                )
            expr = expr.func
        q = self.qualname(expr)
        if q in ("torch.no_grad", "torch.inference_mode"):
            return False
        return True if q == "torch.enable_grad" else None

    def walk_local(self, nodes: Iterable[ast.AST]) -> Iterator[ast.AST]:
        """Every node under `nodes`, in source order, without entering nested functions, lambdas
        or classes: the code that runs when these statements run."""
        children = self.children
        stack = list(nodes)
        stack.reverse()
        while stack:
            node = stack.pop()
            yield node
            kids = children.get(node)
            if kids is None:  # a node built by a rule, outside the tree
                kids = list(ast.iter_child_nodes(node))
            stack.extend(k for k in reversed(kids) if not isinstance(k, SCOPES))

    # quoting ------------------------------------------------------------------------------

    def snippet(self, node: ast.AST, limit: int = 60) -> str:
        """The node's source on its first line, shortened; what a message quotes."""
        lineno = getattr(node, "lineno", 0)
        if not 0 < lineno <= len(self.lines):
            return ""
        raw = self.lines[lineno - 1].encode("utf-8")
        start = getattr(node, "col_offset", 0)
        end = getattr(node, "end_col_offset", None)
        same_line = getattr(node, "end_lineno", lineno) == lineno
        text = raw[start : end if same_line else None].decode("utf-8", "replace").strip()
        if not same_line or len(text) > limit:
            text = text[: limit - 3].rstrip() + "..."
        return text


def method_call(node: ast.AST, *names: str) -> ast.Call | None:
    """`node` if it is a call of a method named one of `names` (`x.backward()`), else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in names
    ):
        return node
    return None


def receiver(call: ast.Call) -> ast.expr:
    assert isinstance(call.func, ast.Attribute)
    return call.func.value


def name_of(node: ast.AST) -> str | None:
    """A plain name or a dotted attribute path (`self.opt`), as text; None otherwise."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def assigned_names(target: ast.AST) -> Iterator[str]:
    """The names an assignment target binds (`a`, `a, b`, `self.x` as 'self.x')."""
    if isinstance(target, ast.Tuple | ast.List):
        for t in target.elts:
            yield from assigned_names(t)
    elif isinstance(target, ast.Starred):
        yield from assigned_names(target.value)
    else:
        n = name_of(target)
        if n:
            yield n
