"""A cosmic-ray operator of our own: a redaction rule that hides a field turned into one that shows.

cosmic-ray's core operators change operators, numbers, booleans and loops anywhere in a module,
module-level tables included, but a policy table (``services/rules/table/redact.py``) hides a
field by *naming* a rule (``hidden``, ``SECRET``, ``_own_hand_only``): no core operator turns
that name into ``shown``. ``RevealHidden`` does, one field and one viewer at a time:

- in a ``Field(owner=..., seats=..., spectator=..., operator=...)`` call, each role whose rule
  is not ``shown`` gets ``shown``, and each role left out (the field is not sent to it) gets
  ``shown`` added;
- ``everyone(rule)`` with a rule other than ``shown`` gets ``everyone(shown)``;
- a use of a module-level name bound to such a ``Field`` or ``everyone(...)`` (``SECRET``,
  ``PRIVATE``, ``_NEW_BAO`` ...) becomes ``PUBLIC``.

A killed mutant is a test that notices that leak; a survivor is a field no test watches.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import parso
from cosmic_ray.operators.operator import Example, Operator
from parso.python.tree import Name

ROLES = ("owner", "seats", "spectator", "operator")
Position = tuple[tuple[int, int], tuple[int, int]]


def _call_name(node: Any) -> str | None:
    """``Field`` for the node ``Field(...)`` (an atom_expr of a name and one call trailer)."""
    if node.type != "atom_expr" or len(node.children) != 2:
        return None
    head, trailer = node.children
    if head.type != "name" or trailer.type != "trailer" or trailer.children[0].value != "(":
        return None
    return str(head.value)


def _arguments(node: Any) -> list[Any]:
    trailer = node.children[1]
    if len(trailer.children) == 2:  # ()
        return []
    inner = trailer.children[1]
    if inner.type == "arglist":
        return [c for c in inner.children if c.type != "operator"]
    return [inner]


def _keywords(node: Any) -> dict[str, Any]:
    """Keyword argument name -> its value node."""
    out = {}
    for arg in _arguments(node):
        if arg.type == "argument" and len(arg.children) == 3 and arg.children[1].value == "=":
            out[str(arg.children[0].value)] = arg.children[2]
    return out


def _is_shown(value: Any) -> bool:
    return bool(value.type == "name" and value.value == "shown")


def _field_edits(node: Any) -> list[tuple[str, Any]]:
    """For a policy ``Field(...)`` call: (role, value node or None when left out) to reveal."""
    if _call_name(node) != "Field":
        return []
    keywords = _keywords(node)
    if not any(role in keywords for role in ROLES):
        return []  # another Field (pydantic's), not a redaction rule
    edits: list[tuple[str, Any]] = []
    for role in ROLES:
        value = keywords.get(role)
        if value is None or not _is_shown(value):
            edits.append((role, value))
    return edits


def _everyone_arg(node: Any) -> Any:
    if _call_name(node) != "everyone":
        return None
    args = _arguments(node)
    if len(args) != 1 or args[0].type == "argument" or _is_shown(args[0]):
        return None
    return args[0]


_CACHE: list[Any] = []
"""The last module read by ``_hiding_constants`` and its names (parso's nodes take no attributes)."""


def _hiding_constants(root: Any) -> frozenset[str]:
    """Module-level names bound to a ``Field`` or ``everyone(...)`` that hides something."""
    if _CACHE and _CACHE[0] is root:
        return frozenset(_CACHE[1])
    names = set()
    for stmt in root.children:
        if stmt.type != "simple_stmt":
            continue
        expr = stmt.children[0]
        if expr.type != "expr_stmt" or len(expr.children) != 3:
            continue
        target, _, value = expr.children
        if target.type == "name" and (_field_edits(value) or _everyone_arg(value) is not None):
            names.add(str(target.value))
    _CACHE[:] = [root, frozenset(names)]
    return frozenset(names)


def _hidden_name_use(node: Any) -> bool:
    if node.type != "name" or node.parent is None or node.is_definition():
        return False
    root = node.get_root_node()
    if node.value not in _hiding_constants(root):
        return False
    parent = node.parent
    if parent.type == "trailer" and parent.children[0].value == ".":
        return False  # an attribute that happens to share the name
    return not (parent.type == "import_from" or parent.type == "import_as_name")


def _parse_expression(code: str, like: Any) -> Any:
    """``code`` as an expression node, carrying ``like``'s prefix (its leading whitespace)."""
    new = parso.parse(code).children[0]
    if new.type == "simple_stmt":
        new = new.children[0]
    new.get_first_leaf().prefix = like.get_first_leaf().prefix
    new.parent = like.parent
    return new


class RevealHidden(Operator):
    """A redaction rule that hides (or leaves out) a field, for one viewer, made to show it."""

    def mutation_positions(self, node: Any) -> Iterator[Position]:
        for role, value in _field_edits(node):
            where = value if value is not None else node.children[1]
            yield (where.start_pos, where.end_pos)
            del role
        arg = _everyone_arg(node)
        if arg is not None:
            yield (arg.start_pos, arg.end_pos)
        if _hidden_name_use(node):
            yield (node.start_pos, node.end_pos)

    def mutate(self, node: Any, index: int) -> Any:
        edits = _field_edits(node)
        if index < len(edits):
            role, value = edits[index]
            if value is not None:
                new = Name("shown", value.start_pos, value.get_first_leaf().prefix)
                new.parent = value.parent
                value.parent.children[2] = new
                return node
            code = node.get_code(include_prefix=False)
            head = code[: code.rindex(")")].rstrip().rstrip(",")
            separator = "" if head.endswith("(") else ", "
            return _parse_expression(f"{head}{separator}{role}=shown)", node)
        index -= len(edits)
        arg = _everyone_arg(node)
        if arg is not None:
            if index == 0:
                return _parse_expression("everyone(shown)", node)
            index -= 1
        assert index == 0 and _hidden_name_use(node)
        new = Name("PUBLIC", node.start_pos, node.prefix)
        new.parent = node.parent
        return new

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (
            Example("F = Field(owner=shown, seats=hidden)", "F = Field(owner=shown, seats=shown)"),
            Example(
                "F = Field(owner=shown, seats=hidden)",
                "F = Field(owner=shown, seats=hidden, spectator=shown)",
                occurrence=1,
            ),
            Example("X = everyone(_counts)", "X = everyone(shown)"),
            Example(
                "S = Field(owner=hidden, seats=shown, spectator=shown, operator=shown)\n"
                "P = {'seed': S}\n",
                "S = Field(owner=hidden, seats=shown, spectator=shown, operator=shown)\n"
                "P = {'seed': PUBLIC}\n",
                occurrence=1,
            ),
        )


class Provider:
    """The ``paiju`` operator provider (registered by ``mutation.cr``)."""

    _OPERATORS = {"RevealHidden": RevealHidden}

    def __iter__(self) -> Iterator[str]:
        return iter(self._OPERATORS)

    def __getitem__(self, name: str) -> type[Operator]:
        return self._OPERATORS[name]
