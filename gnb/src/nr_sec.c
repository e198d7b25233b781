/* NEA2 / NIA2 on libcrypto's EVP interfaces (see nr_sec.h). */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "nr_sec.h"

struct nr_nea2 {
	EVP_CIPHER_CTX *ctx;
};

struct nr_nia2 {
	EVP_MAC_CTX *ctx;
};

/* The first 64 bits of NEA2's counter block and of NIA2's message prefix (TS 33.401 B.1.3, B.2.3). */
static void count_bearer_dir(uint8_t out[8], uint32_t count, uint8_t bearer, enum nr_dir dir)
{
	out[0] = (uint8_t)(count >> 24);
	out[1] = (uint8_t)(count >> 16);
	out[2] = (uint8_t)(count >> 8);
	out[3] = (uint8_t)count;
	out[4] = (uint8_t)(((bearer & 0x1f) << 3) | ((dir & 1) << 2));
	out[5] = out[6] = out[7] = 0;
}

struct nr_nea2 *nr_nea2_new(const uint8_t key[NR_SEC_KEY_LEN])
{
	struct nr_nea2 *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->ctx = EVP_CIPHER_CTX_new();
	if (!c->ctx || EVP_EncryptInit_ex(c->ctx, EVP_aes_128_ctr(), NULL, key, NULL) != 1) {
		nr_nea2_free(c);
		return NULL;
	}
	return c;
}

void nr_nea2_free(struct nr_nea2 *c)
{
	if (!c)
		return;
	EVP_CIPHER_CTX_free(c->ctx);
	free(c);
}

int nr_nea2(struct nr_nea2 *c, uint32_t count, uint8_t bearer, enum nr_dir dir, const uint8_t *in, uint8_t *out,
	    size_t len)
{
	uint8_t iv[16] = { 0 };
	int outl;
	count_bearer_dir(iv, count, bearer, dir);
	/* A NULL cipher and key keep the key schedule: only the counter block changes. */
	if (EVP_EncryptInit_ex(c->ctx, NULL, NULL, NULL, iv) != 1)
		return -1;
	while (len > 0) {
		int chunk = len > (size_t)1 << 30 ? 1 << 30 : (int)len;
		if (EVP_EncryptUpdate(c->ctx, out, &outl, in, chunk) != 1 || outl != chunk)
			return -1;
		in += chunk;
		out += chunk;
		len -= (size_t)chunk;
	}
	return 0;
}

struct nr_nia2 *nr_nia2_new(const uint8_t key[NR_SEC_KEY_LEN])
{
	struct nr_nia2 *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
	if (mac)
		c->ctx = EVP_MAC_CTX_new(mac);
	EVP_MAC_free(mac); /* the context holds its own reference */
	char cipher[] = "AES-128-CBC";
	OSSL_PARAM params[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0),
				OSSL_PARAM_construct_end() };
	if (!c->ctx || EVP_MAC_init(c->ctx, key, NR_SEC_KEY_LEN, params) != 1) {
		nr_nia2_free(c);
		return NULL;
	}
	return c;
}

void nr_nia2_free(struct nr_nia2 *c)
{
	if (!c)
		return;
	EVP_MAC_CTX_free(c->ctx);
	free(c);
}

int nr_nia2(struct nr_nia2 *c, uint32_t count, uint8_t bearer, enum nr_dir dir, const uint8_t *msg, size_t len,
	    uint8_t mac[NR_SEC_MAC_LEN])
{
	uint8_t prefix[8], full[16];
	size_t outl;
	count_bearer_dir(prefix, count, bearer, dir);
	/* A NULL key restarts CMAC with the subkeys computed at creation. */
	if (EVP_MAC_init(c->ctx, NULL, 0, NULL) != 1 || EVP_MAC_update(c->ctx, prefix, sizeof(prefix)) != 1 ||
	    EVP_MAC_update(c->ctx, msg, len) != 1 || EVP_MAC_final(c->ctx, full, &outl, sizeof(full)) != 1 ||
	    outl != sizeof(full))
		return -1;
	memcpy(mac, full, NR_SEC_MAC_LEN);
	return 0;
}
