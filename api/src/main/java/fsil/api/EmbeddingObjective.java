package fsil.api;

import java.util.Map;

/**
 * A method's own training objective on embeddings, through which a backbone trains its network with that method's
 * loss (deep kernel learning, meta-training), e.g. {@code --backbone 'conv4[objective=lsgp(tau=0.2;loss=ml)]'}. A
 * method offers one through {@link Method#objective(Params)}; the backbone finds the method by id, so neither
 * depends on the other.
 *
 * <p>The division of work: the backbone draws training episodes of base-class samples as {@link #sampling()} says,
 * embeds them with its network, passes the embeddings here, back-propagates the returned gradient
 * {@code dL/dz} through the network and steps its optimiser; the objective computes the loss and {@code dL/dz} in
 * Java and steps its own parameters (kernel hyperparameters, ...) in {@link Training#update()}. The backbone may
 * also score few-shot episodes of validation classes with {@link Training#predict} to choose its checkpoint.
 */
public interface EmbeddingObjective {

    /**
     * The shape of a training episode: {@code ways} classes, {@code shots} support samples and up to {@code queries}
     * query samples per class.
     */
    record Sampling(int ways, int shots, int queries) {
        public Sampling {
            if (ways < 2 || shots < 1 || queries < 0) {
                throw new IllegalArgumentException("episodes need ways >= 2, shots >= 1, queries >= 0: " + ways
                        + "-way " + shots + "-shot " + queries + " queries");
            }
        }
    }

    /**
     * One training episode embedded by the network.
     *
     * @param z           the embeddings, {@code rows x dimension} row-major: every support row first (class by class),
     *                    then the queries
     * @param dimension   columns of {@code z}
     * @param labels      per row, the episode's class 0..ways-1
     * @param supportSize the number of support rows
     * @param ways        the number of classes
     * @param seed        this episode's seed for any randomness of the loss (the same seed gives the same loss)
     */
    record Episode(double[] z, int dimension, int[] labels, int supportSize, int ways, long seed) {
        public Episode {
            if (dimension < 1 || z.length != labels.length * dimension || supportSize < 1
                    || supportSize > labels.length || ways < 2) {
                throw new IllegalArgumentException("episode: " + z.length + " values, dimension " + dimension + ", "
                        + labels.length + " labels, support " + supportSize + ", ways " + ways);
            }
        }

        /** The number of rows. */
        public int rows() {
            return labels.length;
        }
    }

    /**
     * The canonical text of every setting that changes training (it enters the backbone's cache key and its
     * {@code describe}), e.g. {@code loss=ml;tau=0.2;train_steps=2}: {@code key=value} pairs joined by {@code ;}.
     */
    String describe();

    /** The episodes to train on. */
    Sampling sampling();

    /** A fresh training state (its own parameters at their initial values) for embeddings of this dimension. */
    Training start(int dimension);

    /** The objective's state during training; used by one thread. */
    interface Training {

        /**
         * The loss of an episode, and {@code dL/dz} written into {@code gradient} (same layout as {@code z}). Returns
         * a non-finite value when the episode cannot be scored (a numerical failure): the caller then skips the
         * episode and does not call {@link #update()}. The objective's own gradient is kept for {@link #update()}.
         */
        double loss(Episode episode, double[] gradient);

        /** Steps the objective's own parameters with the gradient of the last {@link #loss}. */
        void update();

        /** The objective's own parameters by name (a copy), e.g. {@code log_outputscale}, for checkpoints and records. */
        Map<String, Double> state();

        /** Sets the parameters to a state returned by {@link #state()}. */
        void restore(Map<String, Double> state);

        /**
         * Class probabilities of query embeddings given a labelled support, {@code queries x ways} row-major, by the
         * method's own test-time inference with the current parameters; null when the method offers none (the
         * backbone then scores by nearest class mean).
         */
        default double[] predict(double[] support, int[] supportLabels, double[] queries, int dimension, int ways,
                                 long seed) {
            return null;
        }
    }
}
