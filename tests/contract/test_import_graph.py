"""No import cycle between the project's modules, counting imports inside functions (a cycle hidden in a method
is a cycle all the same) and the registries' imports by name (`import_module(f"{__name__}.{key}")`)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules() -> dict[str, Path]:
    found = {}
    for app in ("builder", "catalogue"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules `name` imports. `from package import module` reads the module, not the package."""
    source = path.read_text()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    named: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            inner = {f"{module}.{alias.name}" for alias in node.names}
            named |= (inner & known.keys()) | ({module} if inner - known.keys() else set())
    if "import_module(f\"{__name__}." in source:  # a registry: it imports every module beneath it
        named |= {other for other in known if other.startswith(f"{name}.")}
    found = set()
    for module in named:
        while module and module not in known:
            module = module.rpartition(".")[0]
        if module and module != name:
            found.add(module)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while (top := stack.pop()) != node:
                component.append(top)
            if component:
                found.append(sorted(component + [node]))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_one_that_imports_it_back():
    known = modules()
    assert cycles({name: imports(name, path, known) for name, path in known.items()}) == []


def test_the_check_finds_a_cycle_and_a_registrys_imports():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    known = modules()
    assert "builder.kinds.megamercs.company" in imports("builder.kinds", known["builder.kinds"], known)
