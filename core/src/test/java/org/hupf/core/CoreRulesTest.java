package org.hupf.core;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.nio.file.Path;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The core module's rules (docs/ARCHITECTURE.md, "Modules"), over core's own classes (its build output: the
 * app bundle shares its package names): host-neutral, layered, no package cycle.
 */
public class CoreRulesTest {

    private static final JavaClasses CORE = new ClassFileImporter().importPath(Path.of("target/classes"));

    /** What a host-neutral class may see of ONOS: the types the pipeconf's exported API shows. */
    private static final DescribedPredicate<JavaClass> PIPECONF_API_ONOS_TYPES =
            resideInAnyPackage("org.onlab.packet..", "org.onosproject.net.behaviour.upf..",
                               "org.onosproject.net.pi.model..", "org.onosproject.net.pi.runtime..")
                    .or(belongToAnyOf(DeviceId.class, PortNumber.class));

    @Test
    public void coreSeesOnosOnlyThroughThePipeconfApi() {
        classes().should().onlyDependOnClassesThat(
                        resideInAnyPackage("java..", "javax.ws.rs..", "com.fasterxml.jackson..", "org.slf4j..",
                                           "com.google.common..", "org.hupf.core..", "org.hupf.api..",
                                           "org.hupf.pipeconf", "org.hupf.pipeconf.api..",
                                           "org.hupf.pipeconf.dataplane..", "org.hupf.pipeconf.packet..",
                                           "org.hupf.pipeconf.gnb..")
                                .or(PIPECONF_API_ONOS_TYPES))
                .because("core runs in both hosts: ONOS's services, stores and OSGi stay in the app bundle")
                .check(CORE);
    }

    @Test
    public void theSessionCoreNeverSeesPfcp() {
        noClasses().that().resideInAnyPackage("org.hupf.core.translation..", "org.hupf.core.session..",
                                              "org.hupf.core.store..", "org.hupf.core.device..")
                .should().dependOnClassesThat().resideInAPackage("org.hupf.core.pfcp..")
                .because("the PFCP agent decodes a message into the session model; the core never sees an IE")
                .check(CORE);
    }

    @Test
    public void nothingBelowTheHostServiceCallsUp() {
        noClasses().that().resideOutsideOfPackages("org.hupf.core.impl..", "org.hupf.core.rest..")
                .should().dependOnClassesThat().resideInAPackage("org.hupf.core.impl..")
                .because("SessionManagerService sits on the PFCP agent and the session core; REST reaches it via api")
                .check(CORE);
    }

    @Test
    public void theOffloadLayerSeesNoPfcp() {
        noClasses().that().resideInAPackage("org.hupf.core.offload..")
                .should().dependOnClassesThat().resideInAPackage("org.hupf.core.pfcp..")
                .because("ControlPlane composes the session core and the hybrid; the PFCP agent is the host's")
                .check(CORE);
    }

    /** The same rule as the standalone module's, which PackageRulesTest shows failing on a cycle. */
    @Test
    public void packagesHaveNoCycle() {
        slices().matching("org.hupf.(**)").should().beFreeOfCycles().check(CORE);
    }
}
