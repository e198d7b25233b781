package org.hupf.app;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The module rules of docs/ARCHITECTURE.md ("Modules"), over the classes ONOS loads: the pipeconf, api, core and
 * app bundles (main code; core's own rules: CoreRulesTest). Maven's module dependencies already forbid an upward import (api → app,
 * anything → standalone); these rules catch what Maven allows and ONOS would refuse or what would tangle
 * the layers.
 */
public class ModuleRulesTest {

    private static final JavaClasses ONOS_SIDE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("org.hupf.pipeconf", "org.hupf.api", "org.hupf.app", "org.hupf.core");

    /**
     * The standalone world: its P4Runtime client's transport and messages, its HTTP server and the Jersey that
     * serves the REST resources there (in ONOS, ONOS's web container serves them through JAX-RS alone), its
     * embedded database (inside ONOS the distributed store is the source of truth).
     */
    private static final String[] STANDALONE_WORLD = {
        "p4..", "io.grpc..", "com.google.protobuf..", "com.sun.net.httpserver..", "org.glassfish.jersey..",
        "org.h2..", "org.hupf.standalone.."};

    @Test
    public void bundlesUseOnlyWhatThePipeconfExports() {
        noClasses().that().resideInAnyPackage("org.hupf.api..", "org.hupf.app..", "org.hupf.core..")
                .should().dependOnClassesThat().resideInAnyPackage("org.hupf.pipeconf.behaviour..",
                                                                   "org.hupf.pipeconf.upf..")
                .because("the pipeconf bundle keeps its behaviours and translator private")
                .check(ONOS_SIDE);
    }

    @Test
    public void pipeconfExportsDoNotLeakItsPrivatePackages() {
        noClasses().that().resideInAnyPackage("org.hupf.pipeconf", "org.hupf.pipeconf.api..",
                                              "org.hupf.pipeconf.dataplane..", "org.hupf.pipeconf.packet..",
                                              "org.hupf.pipeconf.gnb..")
                .should().dependOnClassesThat().resideInAnyPackage("org.hupf.pipeconf.behaviour..",
                                                                   "org.hupf.pipeconf.upf..")
                .check(ONOS_SIDE);
    }

    @Test
    public void nothingInOnosImportsTheStandaloneWorld() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(STANDALONE_WORLD)
                .because("one P4Runtime path per host: inside ONOS, ONOS's")
                .check(ONOS_SIDE);
    }

    @Test
    public void theApiKnowsNoImplementation() {
        noClasses().that().resideInAPackage("org.hupf.api..")
                .should().dependOnClassesThat().resideInAnyPackage("org.hupf.app..", "org.hupf.core..")
                .check(ONOS_SIDE);
    }

    @Test
    public void theSessionCoreNeverSeesPfcp() {
        noClasses().that().resideInAnyPackage("org.hupf.api..", "org.hupf.core.translation..", "org.hupf.core.session..",
                                              "org.hupf.app.store..", "org.hupf.core.device..", "org.hupf.core.store..")
                .should().dependOnClassesThat().resideInAPackage("org.hupf.core.pfcp..")
                .because("the PFCP agent decodes a message into the session model; the core never sees an IE")
                .check(ONOS_SIDE);
    }

    @Test
    public void theGuiReadsHupfThroughItsApi() {
        noClasses().that().resideInAPackage("org.hupf.app.gui..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.hupf.core.session..", "org.hupf.core.translation..", "org.hupf.app.store..", "org.hupf.core.device..",
                        "org.hupf.core.pfcp..", "org.hupf.app.offload..", "org.hupf.app.impl..", "org.hupf.app.rest..",
                        "org.hupf.app.cli..", "org.hupf.core.store..", "org.hupf.core.offload..", "org.hupf.core.impl..", "org.hupf.core.rest..")
                .because("the view shows what REST and the CLI show, through HupfService and OffloadService")
                .check(ONOS_SIDE);
    }

    @Test
    public void thePfcpCodecIsPureJava() {
        classes().that().resideInAPackage("org.hupf.core.pfcp.codec")
                .should().onlyDependOnClassesThat().resideInAnyPackage("org.hupf.core.pfcp.codec",
                                                                       "org.hupf.core.pfcp.message",
                                                                       "org.hupf.api.session", "java..")
                .check(ONOS_SIDE);
    }

    @Test
    public void typedRequestsKnowNoWireFormat() {
        classes().that().resideInAPackage("org.hupf.core.pfcp.message")
                .should().onlyDependOnClassesThat().resideInAnyPackage("org.hupf.core.pfcp.message", "java..")
                .because("the codec decodes a message once into these; what consumes them never sees an IE")
                .check(ONOS_SIDE);
    }

    @Test
    public void theSessionEditorConsumesTypedRequestsOnly() {
        noClasses().that().haveFullyQualifiedName("org.hupf.core.pfcp.SessionEditor")
                .should().dependOnClassesThat().resideInAPackage("org.hupf.core.pfcp.codec")
                .check(ONOS_SIDE);
    }

    @Test
    public void packagesHaveNoCycle() {
        slices().matching("org.hupf.(**)").should().beFreeOfCycles().check(ONOS_SIDE);
    }
}
