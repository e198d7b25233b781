package org.hupf.app.device;

import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfMeter;

import java.util.Objects;

/**
 * One update of a device write: install-or-overwrite an entity, or remove it (a meter is removed by
 * resetting its cell, so its removal is the apply of a reset meter).
 */
public final class DeviceUpdate {

    /** What the update does. */
    public enum Kind { APPLY, DELETE }

    private final Kind kind;
    private final UpfEntity entity;

    private DeviceUpdate(Kind kind, UpfEntity entity) {
        this.kind = kind;
        this.entity = Objects.requireNonNull(entity);
    }

    /**
     * @param entity entity to install or overwrite
     * @return the update
     */
    public static DeviceUpdate apply(UpfEntity entity) {
        return new DeviceUpdate(Kind.APPLY, entity);
    }

    /**
     * @param entity entity to remove; a meter becomes the apply of its reset cell
     * @return the update
     */
    public static DeviceUpdate remove(UpfEntity entity) {
        if (entity instanceof UpfMeter) {
            UpfMeter m = (UpfMeter) entity;
            return apply(UpfMeter.resetMeter(m.meterType(), m.cellId()));
        }
        return new DeviceUpdate(Kind.DELETE, entity);
    }

    public Kind kind() {
        return kind;
    }

    public UpfEntity entity() {
        return entity;
    }

    @Override
    public String toString() {
        return kind + " " + entity;
    }
}
