"""The switch's backends selector: the hash of a UE address with which it picks a group member."""


def selector_hash(value):
    """bmv2's crc16 (CRC-16/ARC: poly 0x8005 reflected, init 0, no final xor) of a 32-bit value in network
    byte order, as the backends selector hashes the UE address (backend/dp/steering.c computes the same);
    the member is this modulo the group's size, members in the order they were created."""
    crc = 0
    for byte in value.to_bytes(4, "big"):
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc
