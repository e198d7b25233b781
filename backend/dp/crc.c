/* zlib's CRC-32 (IEEE 802.3: polynomial 0x04C11DB7 reflected, init and final xor 0xFFFFFFFF), which is
 * bmv2's crc32 (v1model HashAlgorithm.crc32): HK-IPG's 5-tuple key and RPS's digests. x86's crc32
 * instruction and DPDK's rte_hash_crc compute CRC-32C, another polynomial. The tables are filled at load;
 * the functions (dp_int.h) are inline, so that constant lengths unroll. */
#include "dp_int.h"

uint32_t dp_crc_table[4][256];

static void __attribute__((constructor)) crc_tables_fill(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
		dp_crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 4; t++)
			dp_crc_table[t][i] = dp_crc_table[t - 1][i] >> 8 ^ dp_crc_table[0][dp_crc_table[t - 1][i] & 0xff];
}
