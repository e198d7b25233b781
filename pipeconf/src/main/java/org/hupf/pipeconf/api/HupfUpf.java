package org.hupf.pipeconf.api;

import org.onosproject.net.driver.HandlerBehaviour;

/**
 * The hupf UPF entity API as an ONOS driver behaviour: {@code device.as(HupfUpf.class)} on a device
 * running one of the hupf pipeconfs.
 */
public interface HupfUpf extends HupfUpfDevice, HandlerBehaviour {
}
