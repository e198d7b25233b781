package org.hupf.pipeconf.behaviour;

import org.hupf.pipeconf.api.HupfDataplaneConfig;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.ClassifierModel;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.upf.HupfDataplane;
import org.hupf.pipeconf.upf.PiCodecException;
import org.hupf.pipeconf.upf.PiTargetException;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.onosproject.net.behaviour.upf.UpfProgrammableException.Type.UNSUPPORTED_OPERATION;

/**
 * {@link HupfDataplaneConfig} inside ONOS, through {@link OnosPiTarget}.
 */
public class HupfDataplaneConfigImpl extends HupfP4RuntimeBehaviour implements HupfDataplaneConfig {

    private interface Call<T> {
        T run(HupfDataplane d) throws PiCodecException, PiTargetException;
    }

    private interface VoidCall {
        void run(HupfDataplane d) throws PiCodecException, PiTargetException;
    }

    private void run(String op, VoidCall call) throws UpfProgrammableException {
        call(op, d -> {
            call.run(d);
            return null;
        });
    }

    private <T> T call(String op, Call<T> call) throws UpfProgrammableException {
        OnosPiTarget target = piTarget(op);
        try {
            return call.run(new HupfDataplane(pipeconf.pipelineModel(), target));
        } catch (PiCodecException e) {
            throw new UpfProgrammableException(op + ": " + e.getMessage(), UNSUPPORTED_OPERATION);
        } catch (PiTargetException e) {
            throw new UpfProgrammableException(op + ": " + e.getMessage());
        }
    }

    @Override
    public void configureHh(HhConfig config) throws UpfProgrammableException {
        run("configureHh", d -> d.configureHh(config));
    }

    @Override
    public void installClassifier(ClassifierModel model) throws UpfProgrammableException {
        run("installClassifier", d -> d.installClassifier(model));
    }

    @Override
    public void setBackendPorts(Collection<Long> ports) throws UpfProgrammableException {
        run("setBackendPorts", d -> d.setBackendPorts(ports));
    }

    @Override
    public void setBackends(int sliceId, List<Backend> backends) throws UpfProgrammableException {
        run("setBackends", d -> d.setBackends(sliceId, backends));
    }

    @Override
    public int setRoutes(Collection<Route> routes) throws UpfProgrammableException {
        return call("setRoutes", d -> d.setRoutes(routes));
    }

    @Override
    public int setTenants(Collection<Tenant> tenants) throws UpfProgrammableException {
        return call("setTenants", d -> d.setTenants(tenants));
    }

    @Override
    public Map<Integer, long[]> readTenantCounters() throws UpfProgrammableException {
        return call("readTenantCounters", HupfDataplane::tenantCounters);
    }

    @Override
    public int setRps(RpsConfig config) throws UpfProgrammableException {
        return call("setRps", d -> d.setRps(config));
    }

    @Override
    public Optional<RpsState> readRps() throws UpfProgrammableException {
        return call("readRps", HupfDataplane::readRps);
    }
}
