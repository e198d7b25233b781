package org.hupf.standalone.cyclefixture.lower;

import org.hupf.standalone.cyclefixture.upper.Upper;

/** The other half of PackageRulesTest's package cycle. */
public class Lower {
    public Upper upper() {
        return new Upper();
    }
}
