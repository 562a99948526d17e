package fsil.backbones.djl;

/**
 * What network a backbone builds, as plain data (no DJL types, so that instantiating a backbone loads nothing of
 * DJL). {@link Networks} turns it into DJL blocks.
 *
 * @param kind  the family
 * @param width multiplier of the channel widths (1 = the published widths)
 */
public record Architecture(Kind kind, double width) {

    /** The network families. */
    public enum Kind { CONV4, RESNET12, RESNET18 }

    /** A published width {@code base} scaled by {@link #width()}, at least 1. */
    public int channels(int base) {
        return Math.max(1, (int) Math.round(base * width));
    }
}
