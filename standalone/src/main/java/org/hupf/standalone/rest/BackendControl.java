package org.hupf.standalone.rest;

import org.hupf.api.DrainReport;
import org.hupf.core.offload.BackendDrain;

import java.util.Map;

/**
 * The backends as {@link BackendsResource} serves them; the lab runner implements it. It lives beside the resource
 * so that the REST layer knows no host (the lab imports rest, never the reverse).
 */
public interface BackendControl {

    /** @return each backend's name, in the config's order, to its state: UP, DOWN, DRAINING or DRAINED */
    Map<String, String> states();

    /**
     * Drains a backend for a planned removal: its UEs steered to the others, its counts read until quiet, then
     * it leaves for good (see {@link BackendDrain}).
     *
     * @param name    the backend
     * @param quietMs how long its counts must stay still
     * @param maxMs   how long to wait for that at most
     * @return what the drain saw
     * @throws IllegalArgumentException not a backend that can leave (unknown, or the first)
     * @throws IllegalStateException    drained already, or no other backend up to take its UEs
     * @throws Exception                the steering failed (the backend keeps its UEs)
     */
    DrainReport drain(String name, long quietMs, long maxMs) throws Exception;
}
