package org.hupf.standalone.cyclefixture.upper;

import org.hupf.standalone.cyclefixture.lower.Lower;

/** Half of a package cycle for PackageRulesTest: uses {@link Lower}, which uses it back. */
public class Upper {
    public Lower lower() {
        return new Lower();
    }
}
