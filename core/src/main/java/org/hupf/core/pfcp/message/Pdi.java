package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PDI (TS 29.244 §7.5.2.2-2): what a PDR matches. Optional fields are null when absent. */
public final class Pdi extends Value {
    public final int sourceInterface;
    public final FTeid fteid;
    public final String networkInstance;
    public final UeIpAddress ueIpAddress;
    public final List<SdfFilter> sdfFilters;
    public final Integer qfi;

    public Pdi(int sourceInterface, FTeid fteid, String networkInstance, UeIpAddress ueIpAddress,
               List<SdfFilter> sdfFilters, Integer qfi) {
        this.sourceInterface = sourceInterface;
        this.fteid = fteid;
        this.networkInstance = networkInstance;
        this.ueIpAddress = ueIpAddress;
        this.sdfFilters = List.copyOf(sdfFilters);
        this.qfi = qfi;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sourceInterface, fteid, networkInstance, ueIpAddress, sdfFilters, qfi);
    }
}
