# matthewwithanm/python-markdownify tests/test_basic.py @ 3026602686f9a77ba0b2e0f6e0cbd42daea978f5 (verbatim)
from .utils import md


def test_single_tag():
    assert md('<span>Hello</span>') == 'Hello'


def test_soup():
    assert md('<div><span>Hello</div></span>') == '\n\nHello\n\n'


def test_whitespace():
    assert md(' a  b \t\t c ') == ' a b c '
    assert md(' a  b \n\n c ') == ' a b\nc '
