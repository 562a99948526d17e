package fsil.api;

/**
 * A few-shot episode: a labelled support set of {@code ways} classes with {@code shots} samples each, and
 * unlabelled queries. Support and queries are disjoint.
 *
 * @param jointQueries true when the queries may be used jointly (transductive setting)
 */
public record Episode(LabeledData support, FeatureMatrix queries, int ways, int shots, boolean jointQueries)
        implements Task {

    public Episode {
        if (queries.cols() != support.dimension()) {
            throw new InvalidDataException("queries have dimension " + queries.cols() + " but the support set has "
                    + support.dimension());
        }
    }

    @Override
    public Capability capability() {
        return jointQueries ? Capability.TRANSDUCTIVE_FEWSHOT : Capability.INDUCTIVE_FEWSHOT;
    }

    @Override
    public int dimension() {
        return support.dimension();
    }
}
