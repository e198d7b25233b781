"""The lab's NEA2 and NIA2 (hupf_tools.gnb.nr_sec, libcrypto through ctypes) on TS 33.401 Annex C's vectors:
C.1 test set 1 (128-EEA2, 253 bits: the last byte's unused bits masked) and C.2 test set 2 (128-EIA2)."""
import pytest

from hupf_tools.gnb.nr_sec import nea2, nia2


def test_nea2_annex_c1_set1():
    key = bytes.fromhex("d3c5d592327fb11c4035c6680af8c6d1")
    plain = bytes.fromhex("981ba6824c1bfb1ab485472029b71d808ce33e2cc3c0b5fc1f3de8a6dc66b1f0")
    cipher = nea2(key, 0x398A59B4, 0x15, 1, plain)
    expected = bytes.fromhex("e9fed8a63d155304d71df20bf3e82214b20ed7dad2f233dc3c22d7bdeeed8e78")
    assert cipher[:-1] == expected[:-1] and cipher[-1] & 0xF8 == expected[-1] & 0xF8
    assert nea2(key, 0x398A59B4, 0x15, 1, cipher) == plain


def test_nia2_annex_c2_set2():
    key = bytes.fromhex("d3c5d592327fb11c4035c6680af8c6d1")
    assert nia2(key, 0x398A59B4, 0x1A, 1, bytes.fromhex("484583d5afe082ae")) == bytes.fromhex("b93787e6")


def test_bad_inputs_refused():
    with pytest.raises(ValueError):
        nea2(bytes(15), 0, 0, 1, b"x")
    with pytest.raises(ValueError):
        nia2(bytes(16), 0, 32, 1, b"x")
