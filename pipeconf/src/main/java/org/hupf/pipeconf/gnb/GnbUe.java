package org.hupf.pipeconf.gnb;

import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.Objects;

/**
 * A UE's context on the gNB switch (one DRB): its index in the services' tables, its air port and MAC, the DRB's
 * logical channel and SN length, the N3 tunnels both ways and the QFI of its uplink. It holds no key: the keys go
 * to the crypto service only (docs/GNB.md, "Control"), so nothing that prints a UE context can print one.
 */
public final class GnbUe {

    private final long ue;
    private final int airPort;
    private final MacAddress mac;
    private final int lcid;
    private final boolean sn18;
    private final long dlTeid;
    private final long ulTeid;
    private final int qfi;
    private final Ip4Address upfAddr;

    /**
     * @param ue      the UE's index (32 bits)
     * @param airPort the switch port towards the UE
     * @param mac     the UE's MAC on the air
     * @param lcid    the DRB's logical channel, 4..32 (TS 38.321 Table 6.2.1-1)
     * @param snBits  the DRB's PDCP SN length, 12 or 18
     * @param dlTeid  the TEID the gNB gave the UPF for the downlink
     * @param ulTeid  the TEID the UPF gave the gNB for the uplink
     * @param qfi     the uplink's QoS flow (6 bits)
     * @param upfAddr the UPF's N3 address
     * @throws IllegalArgumentException naming the field that is out of range
     */
    public GnbUe(long ue, int airPort, MacAddress mac, int lcid, int snBits, long dlTeid, long ulTeid, int qfi,
                 Ip4Address upfAddr) {
        this.ue = range("ue", ue, 0, 0xFFFF_FFFFL);
        this.airPort = GnbSite.port("airPort", airPort);
        this.mac = Objects.requireNonNull(mac, "mac");
        this.lcid = (int) range("lcid", lcid, 4, 32);
        if (snBits != 12 && snBits != 18) {
            throw new IllegalArgumentException("snBits: 12 or 18, not " + snBits);
        }
        this.sn18 = snBits == 18;
        this.dlTeid = range("dlTeid", dlTeid, 1, 0xFFFF_FFFFL);
        this.ulTeid = range("ulTeid", ulTeid, 1, 0xFFFF_FFFFL);
        this.qfi = (int) range("qfi", qfi, 0, 63);
        this.upfAddr = Objects.requireNonNull(upfAddr, "upfAddr");
    }

    private static long range(String name, long v, long lo, long hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(name + ": " + lo + ".." + hi + " is needed, not " + v);
        }
        return v;
    }

    public long ue() {
        return ue;
    }

    public int airPort() {
        return airPort;
    }

    public MacAddress mac() {
        return mac;
    }

    public int lcid() {
        return lcid;
    }

    public boolean sn18() {
        return sn18;
    }

    public long dlTeid() {
        return dlTeid;
    }

    public long ulTeid() {
        return ulTeid;
    }

    public int qfi() {
        return qfi;
    }

    public Ip4Address upfAddr() {
        return upfAddr;
    }

    @Override
    public String toString() {
        return "GnbUe{ue=" + ue + ", airPort=" + airPort + ", mac=" + mac + ", lcid=" + lcid + ", sn"
                + (sn18 ? 18 : 12) + ", dlTeid=" + dlTeid + ", ulTeid=" + ulTeid + ", qfi=" + qfi + "}";
    }
}
