package org.hupf.core.device;

import org.hupf.pipeconf.api.HupfBatchUpf;
import org.hupf.pipeconf.api.UpfCounter;
import org.junit.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;

/** ONOS's backend behaviour reads the cells of a batch's sessions together, not one read per cell. */
public class CounterCellReaderTest {

    @Test
    public void onosBackendBehaviourReadsTheCellsTogether() throws Exception {
        List<String> calls = new ArrayList<>();
        Map<Integer, UpfCounter> cells = Map.of(3, UpfCounter.builder().withCellId(3).setIngress(1, 100).build(),
                                                4, UpfCounter.builder().withCellId(4).setIngress(2, 200).build());
        HupfBatchUpf backend = (HupfBatchUpf) Proxy.newProxyInstance(
                HupfBatchUpf.class.getClassLoader(), new Class<?>[]{HupfBatchUpf.class}, (proxy, m, args) -> {
                    calls.add(m.getName());
                    return m.getName().equals("readCounterCells") ? cells : null;
                });
        assertEquals(cells, CounterCellReader.of(backend).readCounterCells(List.of(3, 4)));
        assertEquals(List.of("readCounterCells"), calls);
    }
}
