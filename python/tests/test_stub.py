"""The type stub (__init__.pyi) declares every public name and method of the package."""

import ast
import inspect
import pathlib

import mbdae


def stub_names():
    tree = ast.parse((pathlib.Path(mbdae.__file__).with_name("__init__.pyi")).read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            names[node.target.id] = set()
    return names


def test_stub_declares_the_public_api():
    declared = stub_names()
    for name in mbdae.__all__:
        assert name in declared, name
    for cls in (mbdae.Model, mbdae.ModelBuilder, mbdae.Result, mbdae.Integrator):
        public = {n for n, _ in inspect.getmembers(cls) if not n.startswith("_")}
        assert public <= declared[cls.__name__], public - declared[cls.__name__]
