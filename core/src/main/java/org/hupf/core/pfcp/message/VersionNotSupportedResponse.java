package org.hupf.core.pfcp.message;

import java.util.List;

/** Version Not Supported Response (TS 29.244 §7.4.4.7): a header without IEs. */
public final class VersionNotSupportedResponse extends PfcpResponse {

    public VersionNotSupportedResponse(int sequence) {
        super(sequence);
    }

    @Override
    protected List<Object> fields() {
        return List.of(sequence);
    }
}
