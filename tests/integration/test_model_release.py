"""Once a folder's tests are done, its package fixtures are garbage-collected before the next
folder's first test: a model held in a reference cycle is gone, not carried into the next
source's memory (issue 26)."""
from __future__ import annotations

pytest_plugins = ["pytester"]

HOLDER = '''
import gc, weakref
import pytest

class Model:
    def __init__(self):
        self.me = self  # a cycle: only the garbage collector frees it

REFS = []

@pytest.fixture(scope="package")
def model():
    gc.disable()  # as between two allocations that never trigger a collection
    m = Model()
    REFS.append(weakref.ref(m))
    return m
'''


def test_the_previous_folders_model_is_collected_before_the_next_folder_runs(tester):
    tester.mkpydir("first").joinpath("conftest.py").write_text(HOLDER)
    tester.path.joinpath("first", "test_a.py").write_text("def test_uses(model):\n    pass\n")
    tester.mkpydir("second").joinpath("test_b.py").write_text(
        "import gc\nfrom first.conftest import REFS\n\n"
        "def test_after():\n    gc.enable()\n    assert REFS and REFS[0]() is None\n")
    result = tester.runpytest("first", "second", "-p", "no:randomly")
    result.assert_outcomes(passed=2)


GARBAGE = '''
import gc, weakref

class Model:
    def __init__(self):
        self.me = self

REFS = []

def test_leaves_garbage():
    gc.disable()
    REFS.append(weakref.ref(Model()))  # unreachable at once, but a cycle: only gc frees it
'''


def test_nothing_is_collected_where_no_package_fixture_was_torn_down(tester):
    tester.mkpydir("first").joinpath("test_a.py").write_text(GARBAGE)
    tester.mkpydir("second").joinpath("test_b.py").write_text(
        "import gc\nfrom first.test_a import REFS\n\n"
        "def test_after():\n    alive = REFS[0]() is not None\n    gc.enable()\n    assert alive\n")
    result = tester.runpytest("first", "second", "-p", "no:randomly")
    result.assert_outcomes(passed=2)
