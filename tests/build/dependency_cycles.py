"""File-level dependency graphs of hupf's C files and Python modules, and the cycles in them.

A graph maps a node (a file or module name) to the set of nodes it depends on. `cycles` returns each group of
nodes that reach each other (Tarjan's strongly connected components of two or more nodes, or a node that
depends on itself), so that a test can print every file of a cycle, not only the first edge it met.
"""
import ast
import re
import subprocess
from pathlib import Path


def cycles(graph):
    """The cycles of graph, each as a sorted list of its nodes, sorted."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for dep in sorted(graph.get(node, ())):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in on_stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def describe(graph, cycle, why=None):
    """One cycle's edges, "a -> b (what)" a line, for a failure message."""
    members = set(cycle)
    lines = []
    for node in cycle:
        for dep in sorted(graph[node] & members):
            lines.append("%s -> %s%s" % (node, dep, " (%s)" % ", ".join(why[node, dep]) if why else ""))
    return "\n".join(lines)


# ---- C: translation units ----

def nm_call_graph(objects):
    """Which object calls which: A -> B when A refers to a function that B defines (nm: A has it undefined,
    B in its text section). Shared data (the context g_dp, lookup tables) is state, not a call, and no edge.
    objects: object files or archives; a node is an object's name (tables.o).

    Returns (graph, why): why[a, b] lists the functions behind the edge a -> b.
    """
    out = subprocess.run(["nm", "-P", "-A", *map(str, objects)], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = {}, {}
    for line in out.splitlines():
        # "lib.a[tables.o]: dp_init T 0000 0010" or "tables.o: dp_init T ..."
        where, _, rest = line.rpartition(": ")
        fields = rest.split()
        if len(fields) < 2:
            continue
        obj = Path(re.sub(r"^.*\[(.*)\]$", r"\1", where)).name
        symbol, kind = fields[0], fields[1]
        if kind == "T":
            defined[symbol] = obj
        elif kind == "U":
            undefined.setdefault(obj, set()).add(symbol)
    graph = {obj: set() for obj in set(defined.values()) | set(undefined)}
    why = {}
    for obj, symbols in undefined.items():
        for symbol in sorted(symbols):
            owner = defined.get(symbol)
            if owner and owner != obj:
                graph[obj].add(owner)
                why.setdefault((obj, owner), []).append(symbol)
    return graph, why


def include_graph(files, root, search=()):
    """Which file includes which of the others (#include "x.h"); a node is a file's path below root. "x.h" is
    looked up as the compiler does: beside the including file, then in search (its -I directories).
    """
    root = Path(root)
    known = {Path(f).resolve() for f in files}
    graph = {}
    for f in map(Path, files):
        deps = set()
        for included in re.findall(r'^\s*#\s*include\s*"([^"]+)"', f.read_text(), re.MULTILINE):
            for where in (f.parent, *map(Path, search)):
                candidate = (where / included).resolve()
                if candidate.exists():
                    if candidate in known:
                        deps.add(str(candidate.relative_to(root.resolve())))
                    break
        graph[str(f.resolve().relative_to(root.resolve()))] = deps
    return graph


# ---- Python: modules ----

def _module_name(root, path):
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path, name, is_package, known):
    """The modules of known that the file at path (module name) imports, by any import statement anywhere."""
    deps = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            deps.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                anchor = parts[:len(parts) - node.level + (1 if is_package else 0)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                deps.add(base + "." + alias.name if base + "." + alias.name in known else base)
    return deps


def python_import_graph(root, package):
    """Which module of package (a directory below root) imports which of the package's others: every import
    statement counts, at module level or inside a function, a conditional or a try. `from p import n` is an
    edge to the module p.n where n is one, else to p (its __init__).
    """
    files = sorted((Path(root) / package).rglob("*.py"))
    modules = {_module_name(Path(root), f): f for f in files}
    graph = {}
    for name, path in modules.items():
        deps = _imported(path, name, path.name == "__init__.py", modules)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def script_import_graph(root, dirs, shared=()):
    """The same for flat directories of top-level modules, as pytest and scripts import them: `import smf`
    from a file is the smf.py beside it, else the one in a shared directory (on the path for all, as
    tests/lib is). A node is a file's path below root.
    """
    root = Path(root)
    graph = {}
    for d in map(Path, dirs):
        for path in sorted(d.glob("*.py")):
            deps = set()
            for module in _imported(path, path.stem, False, set()):
                top = module.split(".")[0]
                for where in (d, *map(Path, shared)):
                    if (where / (top + ".py")).exists():
                        deps.add(str((where / (top + ".py")).relative_to(root)))
                        break
            key = str(path.relative_to(root))
            graph[key] = deps - {key}
    return graph
