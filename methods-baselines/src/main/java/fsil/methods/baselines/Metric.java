package fsil.methods.baselines;

/** The distance of the nearest-mean and nearest-neighbour baselines. */
public enum Metric {
    /** Squared Euclidean distance. */
    EUCLIDEAN,
    /** Cosine similarity of L2-normalised vectors. */
    COSINE
}
