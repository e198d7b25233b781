package org.hupf.pipeconf.api;


import java.util.Objects;

/**
 * One update of a device write: install-or-overwrite an entity, or remove it (a meter is removed by
 * resetting its cell, so its removal is the apply of a reset meter). An apply may say that the device holds an
 * entry under the entity's key already (a session's changed entry): a device that tells inserting from
 * overwriting then overwrites it at once instead of trying an insertion first.
 */
public final class DeviceUpdate {

    /** What the update does. */
    public enum Kind { APPLY, DELETE }

    private final Kind kind;
    private final UpfEntity entity;
    private final boolean overwrites;

    private DeviceUpdate(Kind kind, UpfEntity entity, boolean overwrites) {
        this.kind = kind;
        this.entity = Objects.requireNonNull(entity);
        this.overwrites = overwrites;
    }

    /**
     * @param entity entity to install or overwrite
     * @return the update
     */
    public static DeviceUpdate apply(UpfEntity entity) {
        return new DeviceUpdate(Kind.APPLY, entity, false);
    }

    /**
     * @param entity entity to install over the different one the device holds under the same key
     * @return an apply that {@link #overwrites()}
     */
    public static DeviceUpdate overwrite(UpfEntity entity) {
        return new DeviceUpdate(Kind.APPLY, entity, true);
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
        return new DeviceUpdate(Kind.DELETE, entity, false);
    }

    public Kind kind() {
        return kind;
    }

    public UpfEntity entity() {
        return entity;
    }

    /** @return whether this apply replaces an entry the device holds under the entity's key */
    public boolean overwrites() {
        return overwrites;
    }

    @Override
    public String toString() {
        return kind + " " + entity;
    }
}
