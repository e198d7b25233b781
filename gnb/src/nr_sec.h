/* 128-NEA2 (AES-128-CTR) and 128-NIA2 (AES-CMAC, 32-bit MAC) of TS 33.501 Annex D, which are
 * 128-EEA2 / 128-EIA2 of TS 33.401 Annex B, on OpenSSL's libcrypto. A key context is made once
 * per UE and key (the AES key schedule and the CMAC subkeys are computed then); each packet only
 * sets the counter block or restarts the MAC. One context is used by one lcore at a time.
 *
 * The service works on whole bytes, as PDCP does: lengths are in bytes. */
#ifndef GNB_NR_SEC_H
#define GNB_NR_SEC_H

#include <stddef.h>
#include <stdint.h>

#define NR_SEC_KEY_LEN 16
#define NR_SEC_MAC_LEN 4

enum nr_dir { NR_DIR_UPLINK = 0, NR_DIR_DOWNLINK = 1 };

struct nr_nea2;
struct nr_nia2;

/* NULL when libcrypto refuses the context (out of memory, no AES provider). */
struct nr_nea2 *nr_nea2_new(const uint8_t key[NR_SEC_KEY_LEN]);
void nr_nea2_free(struct nr_nea2 *c);
/* Ciphers (or deciphers: the same keystream XOR) len bytes from in to out (may be equal) with the
 * counter block COUNT || BEARER || DIRECTION || 0^26 || 0^64. BEARER is the 5-bit input of the
 * algorithm (for NR, the radio bearer identity - 1, TS 38.323 §5.8). 0 on success. */
int nr_nea2(struct nr_nea2 *c, uint32_t count, uint8_t bearer, enum nr_dir dir, const uint8_t *in, uint8_t *out,
	    size_t len);

struct nr_nia2 *nr_nia2_new(const uint8_t key[NR_SEC_KEY_LEN]);
void nr_nia2_free(struct nr_nia2 *c);
/* MAC-I over COUNT || BEARER || DIRECTION || 0^26 || msg: the first 32 bits of AES-CMAC. 0 on success. */
int nr_nia2(struct nr_nia2 *c, uint32_t count, uint8_t bearer, enum nr_dir dir, const uint8_t *msg, size_t len,
	    uint8_t mac[NR_SEC_MAC_LEN]);

#endif
