package fsil.methods.bavardage;

import fsil.api.LabeledData;
import fsil.core.random.EpisodeSampler;
import fsil.core.synthetic.GaussianClasses;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The module's test data: core's backbone-like Gaussian features ({@link GaussianClasses#backboneFeatures}), base
 * classes 0..B-1 and novel classes B..B+N-1 of one model, and labelled episodes of the novel classes drawn as the
 * few-shot protocol draws them.
 */
record SyntheticEpisodes(LabeledData base, LabeledData novel, EpisodeSampler sampler) {

    static SyntheticEpisodes generate(long seed, int dim, int baseClasses, int basePerClass, int novelClasses,
                                      int novelPerClass, double separation, int nuisance, double nuisanceSd) {
        GaussianClasses model = GaussianClasses.backboneFeatures(dim, seed, separation, nuisance, nuisanceSd).build();
        LabeledData novel = model.classes(baseClasses, baseClasses + novelClasses, novelPerClass, 0);
        return new SyntheticEpisodes(model.classes(0, baseClasses, basePerClass, 0), novel, EpisodeSampler.of(novel));
    }

    int dimension() {
        return base.dimension();
    }

    LabeledEpisode episode(UniformRandomProvider rng, int ways, int shots, EpisodeSampler.Queries queries) {
        return LabeledEpisode.of(novel, sampler.sample(rng, ways, shots, queries));
    }

    /** Exactly these query counts, for the chosen classes in ascending id order. */
    static EpisodeSampler.Queries counts(int... counts) {
        return (sizes, shots, rng) -> counts.clone();
    }
}
