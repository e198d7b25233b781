package org.hupf.standalone;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.Assert.assertTrue;

/**
 * The standalone module's package rules (docs/ARCHITECTURE.md, "Modules"), as app's ModuleRulesTest has them
 * for the bundles: the hosts ({@code HupfStandalone}, the lab runner) sit on top of adapters that know no host
 * ({@code rest}, {@code p4rt}, {@code store}), and no package cycle.
 */
public class PackageRulesTest {

    private static final JavaClasses STANDALONE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.hupf.standalone");

    private static final ArchRule NO_PACKAGE_CYCLE = slices().matching("org.hupf.(**)").should().beFreeOfCycles();

    @Test
    public void adaptersKnowNoHost() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("hosts").definedBy("org.hupf.standalone", "org.hupf.standalone.lab..")
                .layer("rest").definedBy("org.hupf.standalone.rest..")
                .layer("p4rt").definedBy("org.hupf.standalone.p4rt..")
                .layer("store").definedBy("org.hupf.standalone.store..")
                .layer("systemd").definedBy("org.hupf.standalone.systemd..")
                .whereLayer("hosts").mayNotBeAccessedByAnyLayer()
                .whereLayer("rest").mayOnlyBeAccessedByLayers("hosts")
                .whereLayer("p4rt").mayOnlyBeAccessedByLayers("hosts")
                .whereLayer("store").mayOnlyBeAccessedByLayers("hosts")
                .whereLayer("systemd").mayOnlyBeAccessedByLayers("hosts")
                .because("a host assembles the adapters; an adapter importing a host ties the two hosts together")
                .check(STANDALONE);
    }

    @Test
    public void theHostRunsCoreNotTheOnosAdapter() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(
                        "org.osgi..", "org.apache.karaf..", "org.onosproject.store..", "org.onosproject.cluster..",
                        "org.onosproject.mastership..", "org.onosproject.net.config..", "org.onosproject.net.device..",
                        "org.onosproject.cli..", "org.onosproject.ui..")
                .because("outside ONOS the control plane is core's, composed by ControlPlane, never the app bundle's")
                .check(STANDALONE);
    }

    @Test
    public void packagesHaveNoCycle() {
        NO_PACKAGE_CYCLE.check(STANDALONE);
    }

    /** The rule sees a cycle where there is one: two test-only packages that import each other. */
    @Test
    public void theCycleRuleReportsACycle() {
        EvaluationResult result = NO_PACKAGE_CYCLE.evaluate(
                new ClassFileImporter().importPackages("org.hupf.standalone.cyclefixture"));
        String report = String.join("\n", result.getFailureReport().getDetails());
        assertTrue(report, result.hasViolation());
        assertTrue(report, report.contains("cyclefixture.upper") && report.contains("cyclefixture.lower"));
    }
}
