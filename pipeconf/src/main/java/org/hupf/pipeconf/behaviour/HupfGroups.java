package org.hupf.pipeconf.behaviour;

import org.onosproject.drivers.p4runtime.P4RuntimeReplicationGroupProgrammable;
import org.onosproject.net.DeviceId;
import org.onosproject.net.driver.AbstractHandlerBehaviour;
import org.onosproject.net.group.Group;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupOperation;
import org.onosproject.net.group.GroupOperations;
import org.onosproject.net.group.GroupProgrammable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The {@link GroupProgrammable} of hupf's pipeconfs: replication groups (the CPU clone session hupf's pipeliner
 * asks ONOS's group service for) go through ONOS's P4Runtime replication programmable, as with the P4Runtime
 * driver's own; the action profile groups and members of the switch's backend selector are hupf's (steering,
 * written through the P4Runtime client), so ONOS's group audit stays off them: the driver's would remove, every
 * 30 s, each group its translation store lacks, and steering with it. Other ONOS groups are refused.
 */
public class HupfGroups extends AbstractHandlerBehaviour implements GroupProgrammable {

    private static final Logger log = LoggerFactory.getLogger(HupfGroups.class);

    /**
     * @param type group type
     * @return whether ONOS's replication programmable handles it (PRE multicast groups, clone sessions)
     */
    static boolean isReplication(GroupDescription.Type type) {
        return type == GroupDescription.Type.ALL || type == GroupDescription.Type.CLONE;
    }

    private GroupProgrammable replication() {
        P4RuntimeReplicationGroupProgrammable p = new P4RuntimeReplicationGroupProgrammable();
        p.setHandler(handler());
        p.setData(data());
        return p;
    }

    @Override
    public void performGroupOperation(DeviceId deviceId, GroupOperations groupOps) {
        List<GroupOperation> replication = new ArrayList<>();
        for (GroupOperation op : groupOps.operations()) {
            if (isReplication(op.groupType())) {
                replication.add(op);
            } else {
                log.warn("Refused a {} group for {}: its action profiles are hupf's", op.groupType(), deviceId);
            }
        }
        if (!replication.isEmpty()) {
            replication().performGroupOperation(deviceId, new GroupOperations(replication));
        }
    }

    @Override
    public Collection<Group> getGroups() {
        return replication().getGroups();
    }
}
