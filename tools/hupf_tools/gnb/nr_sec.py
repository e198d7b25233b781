"""128-NEA2 (AES-128-CTR) and 128-NIA2 (AES-CMAC, 32-bit MAC-I) of TS 33.501 Annex D (TS 33.401 Annex B) for the
lab's UE hosts and the tests, through OpenSSL's libcrypto (ctypes): the same library as the gNB's crypto service,
no AES written here."""
import ctypes
import ctypes.util
import struct

_lib = ctypes.CDLL(ctypes.util.find_library("crypto") or "libcrypto.so.3")
_lib.EVP_CIPHER_CTX_new.restype = ctypes.c_void_p
_lib.EVP_aes_128_ctr.restype = ctypes.c_void_p
_lib.EVP_EncryptInit_ex.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p,
                                    ctypes.c_char_p]
_lib.EVP_EncryptUpdate.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int),
                                   ctypes.c_char_p, ctypes.c_int]
_lib.EVP_CIPHER_CTX_free.argtypes = [ctypes.c_void_p]
_lib.EVP_Q_mac.restype = ctypes.c_void_p
_lib.EVP_Q_mac.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p,
                           ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                           ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]

DOWNLINK, UPLINK = 1, 0


def _check(key, bearer, direction):
    if len(key) != 16 or not 0 <= bearer < 32 or direction not in (0, 1):
        raise ValueError("NEA2/NIA2 need a 128-bit key, a 5-bit bearer and a 1-bit direction")


def nea2(key, count, bearer, direction, data):
    """Ciphers (or deciphers: the same keystream) data; the counter block is COUNT || BEARER || DIRECTION || 0."""
    _check(key, bearer, direction)
    iv = struct.pack("!IB", count, (bearer << 3) | (direction << 2)) + bytes(11)
    ctx = _lib.EVP_CIPHER_CTX_new()
    if not ctx:
        raise MemoryError("EVP_CIPHER_CTX_new")
    try:
        out = ctypes.create_string_buffer(len(data) + 16)
        n = ctypes.c_int(0)
        if _lib.EVP_EncryptInit_ex(ctx, _lib.EVP_aes_128_ctr(), None, key, iv) != 1 or \
                _lib.EVP_EncryptUpdate(ctx, out, ctypes.byref(n), data, len(data)) != 1:
            raise RuntimeError("libcrypto refused AES-128-CTR")
        return out.raw[:n.value]
    finally:
        _lib.EVP_CIPHER_CTX_free(ctx)


def nia2(key, count, bearer, direction, message):
    """MAC-I: the first 32 bits of AES-CMAC over COUNT || BEARER || DIRECTION || 0^26 || message."""
    _check(key, bearer, direction)
    data = struct.pack("!IB", count, (bearer << 3) | (direction << 2)) + bytes(3) + message
    out = ctypes.create_string_buffer(16)
    n = ctypes.c_size_t(0)
    if not _lib.EVP_Q_mac(None, b"CMAC", None, b"AES-128-CBC", None, key, len(key), data, len(data), out, 16,
                          ctypes.byref(n)) or n.value != 16:
        raise RuntimeError("libcrypto refused AES-CMAC")
    return out.raw[:4]
