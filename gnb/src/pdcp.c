/* PDCP header handling (see pdcp.h). */
#include "pdcp.h"

#define PDCP_DC_DATA 0x80
#define PDCP_TYPE_SHIFT 4
#define PDCP_TYPE_MASK 0x7
#define PDCP_TYPE_STATUS 0
#define STATUS_HDR_LEN 5

enum pdcp_err pdcp_parse(const uint8_t *p, size_t len, unsigned sn_bits, struct pdcp_pdu *out)
{
	unsigned hl = pdcp_data_hdr_len(sn_bits);
	if (!hl)
		return PDCP_ERR_SN_LEN;
	if (len < 1)
		return PDCP_ERR_TRUNCATED;
	if (p[0] & PDCP_DC_DATA) {
		if (len < hl)
			return PDCP_ERR_TRUNCATED;
		out->kind = PDCP_DATA;
		out->hdr_len = (uint8_t)hl;
		out->sn = sn_bits == 12 ? ((uint32_t)(p[0] & 0x0f) << 8) | p[1]
					: ((uint32_t)(p[0] & 0x03) << 16) | ((uint32_t)p[1] << 8) | p[2];
		return PDCP_OK;
	}
	return pdcp_parse_control(p, len, out);
}

enum pdcp_err pdcp_parse_control(const uint8_t *p, size_t len, struct pdcp_pdu *out)
{
	if (len < 1)
		return PDCP_ERR_TRUNCATED;
	if ((p[0] & PDCP_DC_DATA) || ((p[0] >> PDCP_TYPE_SHIFT) & PDCP_TYPE_MASK) != PDCP_TYPE_STATUS)
		return PDCP_ERR_CONTROL_TYPE;
	if (len < STATUS_HDR_LEN)
		return PDCP_ERR_TRUNCATED;
	out->kind = PDCP_STATUS_REPORT;
	out->hdr_len = STATUS_HDR_LEN;
	out->fmc = ((uint32_t)p[1] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 8) | p[4];
	out->bitmap = p + STATUS_HDR_LEN;
	out->bitmap_len = len - STATUS_HDR_LEN;
	return PDCP_OK;
}

unsigned pdcp_write_data_hdr(uint8_t *p, unsigned sn_bits, uint32_t sn)
{
	if (sn_bits == 12) {
		p[0] = (uint8_t)(PDCP_DC_DATA | ((sn >> 8) & 0x0f));
		p[1] = (uint8_t)sn;
		return 2;
	}
	if (sn_bits == 18) {
		p[0] = (uint8_t)(PDCP_DC_DATA | ((sn >> 16) & 0x03));
		p[1] = (uint8_t)(sn >> 8);
		p[2] = (uint8_t)sn;
		return 3;
	}
	return 0;
}

void pdcp_write_status_hdr(uint8_t *p, uint32_t fmc)
{
	p[0] = PDCP_TYPE_STATUS << PDCP_TYPE_SHIFT;
	p[1] = (uint8_t)(fmc >> 24);
	p[2] = (uint8_t)(fmc >> 16);
	p[3] = (uint8_t)(fmc >> 8);
	p[4] = (uint8_t)fmc;
}

uint32_t pdcp_rx_count(uint32_t rx_deliv, uint32_t rcvd_sn, unsigned sn_bits)
{
	uint32_t sn_mask = (1u << sn_bits) - 1, window = 1u << (sn_bits - 1);
	uint32_t deliv_sn = rx_deliv & sn_mask, hfn = rx_deliv >> sn_bits;
	/* Signed comparisons as the spec writes them: SN(RX_DELIV) - Window_Size may be negative. */
	if ((int64_t)rcvd_sn < (int64_t)deliv_sn - window)
		hfn++;
	else if ((int64_t)rcvd_sn >= (int64_t)deliv_sn + window)
		hfn--;
	return (hfn << sn_bits) | rcvd_sn;
}
