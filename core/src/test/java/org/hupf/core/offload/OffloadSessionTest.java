package org.hupf.core.offload;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.junit.Test;

import java.util.ArrayList;
import java.util.List;

import static org.hupf.core.offload.OffloadManagerTest.session;
import static org.hupf.core.offload.OffloadManagerTest.ue;
import static org.hupf.core.offload.OffloadManagerTest.uplink;
import static org.junit.Assert.assertArrayEquals;

public class OffloadSessionTest {

    private static UpfTerminationUplink uplinkTermination(int counter) {
        return UpfTerminationUplink.builder().withUeSessionId(ue(1)).withApplicationId(counter % 7)
                .withCounterId(counter).withTrafficClass(0).withAppMeterIdx(0).build();
    }

    private static UpfTerminationDownlink downlinkTermination(int counter) {
        return UpfTerminationDownlink.builder().withUeSessionId(ue(1)).withApplicationId(counter % 5)
                .withCounterId(counter).withTeid(2001).withQfi(9).withTrafficClass(0).build();
    }

    @Test
    public void counterIdsAreTheTerminationsCellsAscendingEachOnce() {
        List<UpfEntity> entities = new ArrayList<>(List.of(uplinkTermination(900), downlinkTermination(31),
                                                           uplink(1, 1001), uplinkTermination(31),
                                                           downlinkTermination(7), uplinkTermination(900)));
        assertArrayEquals(new int[] {7, 31, 900}, OffloadSession.of(ue(1), 0, List.of(9), entities).counterIds());
        assertArrayEquals(new int[] {500_002, 500_003}, session(1).counterIds());
        assertArrayEquals(new int[0], OffloadSession.of(ue(1), 0, List.of(), List.of(uplink(1, 1001))).counterIds());
    }
}
