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

    /**
     * Channel counts are multiples of this. libtorch 2.7.1's CPU convolutions (oneDNN 3.7.1) store channels in blocks
     * of 16 (8 without AVX-512) and, for a count that is not a multiple, read padding they never wrote: the result
     * then depends on what that memory held before (NaN now and then). All published widths are multiples of 16.
     */
    public static final int CHANNEL_BLOCK = 16;

    /** A published width {@code base} scaled by {@link #width()}, rounded to a multiple of {@link #CHANNEL_BLOCK}. */
    public int channels(int base) {
        return Math.max(1, (int) Math.round(base * width / CHANNEL_BLOCK)) * CHANNEL_BLOCK;
    }
}
