package fsil.methods.ncmforest;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Everything one tree needs during one learn() call: read-only access to the samples, the configuration, its own
 * random streams (derived from the tree's seed, so trees never share randomness and the thread count cannot
 * change any number), scratch arrays, and work counters for the diagnostics.
 *
 * <p>Separate named streams for growing, node selection, reservoir steps and bagging keep the strategies
 * comparable: RTST with pi = 0 consumes exactly the growth randomness IGT does.
 */
final class TreeWork {
    final ForestConfig cfg;
    final float[] x;
    final int[] y;
    final int dim;
    final int numClasses;
    final Entropy entropy;
    final UniformRandomProvider growRng;
    final UniformRandomProvider selectRng;
    final UniformRandomProvider reservoirRng;
    final UniformRandomProvider bagRng;
    /** All-zero class-indexed scratch (returned to all-zero after each use). */
    final int[] classScratch;
    final int[] classScratch2;

    /** Sample-to-centroid distance evaluations (the dominant training cost). */
    long distanceEvals;
    /** Split searches run (nodes trained). */
    long nodesTrained;
    /** Candidate split functions scored. */
    long candidatesScored;
    /** Split nodes picked by the RTST/RUST selection. */
    long nodesSelected;
    /** Subtrees cut to leaves. */
    long nodesCut;
    /** RUST: split nodes whose class subset changed. */
    long nodesUpdated;
    /** RUST: old samples re-routed to the other child. */
    long samplesMoved;
    /** CPU time of the thread that trained or updated this tree, in nanoseconds (0 if the JVM cannot measure it). */
    long cpuNanos;

    TreeWork(ForestConfig cfg, SampleStore store, int numClasses, Entropy entropy, long treeSeed) {
        this.cfg = cfg;
        this.x = store.features();
        this.y = store.labels();
        this.dim = store.dim();
        this.numClasses = numClasses;
        this.entropy = entropy;
        this.growRng = RandomStreams.create(RandomStreams.derive(treeSeed, "grow"));
        this.selectRng = RandomStreams.create(RandomStreams.derive(treeSeed, "select"));
        this.reservoirRng = RandomStreams.create(RandomStreams.derive(treeSeed, "reservoir"));
        this.bagRng = RandomStreams.create(RandomStreams.derive(treeSeed, "bag"));
        this.classScratch = new int[numClasses];
        this.classScratch2 = new int[numClasses];
    }

    ClassHistogram histogram(int[] samples) {
        return ClassHistogram.of(samples, samples.length, y, classScratch);
    }

    /** Adds the counters of {@code o} to this one's. */
    void addCounters(TreeWork o) {
        distanceEvals += o.distanceEvals;
        nodesTrained += o.nodesTrained;
        candidatesScored += o.candidatesScored;
        nodesSelected += o.nodesSelected;
        nodesCut += o.nodesCut;
        nodesUpdated += o.nodesUpdated;
        samplesMoved += o.samplesMoved;
        cpuNanos += o.cpuNanos;
    }
}
