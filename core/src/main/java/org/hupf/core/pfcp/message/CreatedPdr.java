package org.hupf.core.pfcp.message;

import java.util.List;

/** Created PDR (TS 29.244 §7.5.3.2): the F-TEID hupf chose for a PDR whose request said CHOOSE. */
public final class CreatedPdr extends Value {
    public final int pdrId;
    public final FTeid localFteid;

    public CreatedPdr(int pdrId, FTeid localFteid) {
        this.pdrId = pdrId;
        this.localFteid = localFteid;
    }

    @Override
    protected List<Object> fields() {
        return List.of(pdrId, localFteid);
    }
}
