/* PDCP PDUs of TS 38.323 §6.2 that the gNB's services see: data PDUs of DRBs with a 12- or 18-bit
 * SN, and the status report control PDU (FMC and bitmap). Parsing checks every bound. */
#ifndef GNB_PDCP_H
#define GNB_PDCP_H

#include <stddef.h>
#include <stdint.h>

enum pdcp_kind {
	PDCP_DATA,
	PDCP_STATUS_REPORT,
};

enum pdcp_err {
	PDCP_OK = 0,
	PDCP_ERR_TRUNCATED,      /* shorter than its header */
	PDCP_ERR_CONTROL_TYPE,   /* a control PDU other than a status report (ROHC feedback, reserved) */
	PDCP_ERR_SN_LEN,         /* the bearer's SN length is neither 12 nor 18 */
};

struct pdcp_pdu {
	enum pdcp_kind kind;
	uint8_t hdr_len;         /* data: 2 (12-bit SN) or 3 (18-bit SN); status report: 5 */
	uint32_t sn;             /* data */
	uint32_t fmc;            /* status report: first missing COUNT */
	const uint8_t *bitmap;   /* status report: bit i (MSB first) set = COUNT fmc + 1 + i received */
	size_t bitmap_len;
};

/* The header length of a data PDU for sn_bits (12 or 18); 0 for any other. */
static inline unsigned pdcp_data_hdr_len(unsigned sn_bits)
{
	return sn_bits == 12 ? 2 : sn_bits == 18 ? 3 : 0;
}

/* Parses len bytes of a PDU of a bearer with sn_bits-long SNs. */
enum pdcp_err pdcp_parse(const uint8_t *p, size_t len, unsigned sn_bits, struct pdcp_pdu *out);
/* Parses a control PDU (whose format does not depend on the SN length): a status report, else an error. */
enum pdcp_err pdcp_parse_control(const uint8_t *p, size_t len, struct pdcp_pdu *out);
/* PDCP_ERR_CONTROL_TYPE is also what pdcp_parse_control says of a data PDU. */
/* Writes a data PDU header with sn (its low sn_bits) into p (pdcp_data_hdr_len bytes); its length, 0 for bad sn_bits. */
unsigned pdcp_write_data_hdr(uint8_t *p, unsigned sn_bits, uint32_t sn);
/* Writes a status report's first 5 bytes (D/C, PDU type, FMC); the bitmap follows. */
void pdcp_write_status_hdr(uint8_t *p, uint32_t fmc);

/* RCVD_HFN and COUNT of a received SN relative to RX_DELIV (TS 38.323 §5.2.2.1). */
uint32_t pdcp_rx_count(uint32_t rx_deliv, uint32_t rcvd_sn, unsigned sn_bits);

#endif
