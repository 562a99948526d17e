package fsil.methods.ncmforest;

import fsil.api.InvalidParameterException;
import fsil.api.Param;
import fsil.api.Params;

/**
 * The resolved settings of an NCM forest (one field per parameter of {@link NcmForestMethod}; see there for the
 * documentation of each).
 */
record ForestConfig(
        int trees,
        int candidates,
        int minLeaf,
        boolean minSplitRule,
        int maxDepth,
        SubsetSizeRule subsetSize,
        double subsetFraction,
        SplitKind split,
        int axisFeatures,
        Strategy strategy,
        double pi,
        SelectionRule selection,
        ReservoirPolicy rustInsertion,
        boolean rustAllNodes,
        boolean bagging,
        double leafPrior,
        boolean standardize) {

    ForestConfig {
        if (strategy == Strategy.RUST && split != SplitKind.NCM) {
            throw new InvalidParameterException("parameter 'strategy' = rust re-uses the class centroids of NCM split "
                    + "nodes and needs split=ncm (got split=" + Param.text(split) + "); use uls, igt, rtst or retrain with "
                    + "axis-aligned splits");
        }
    }

    static ForestConfig from(Params p) {
        return new ForestConfig(
                p.get(NcmForestMethod.TREES),
                p.get(NcmForestMethod.CANDIDATES),
                p.get(NcmForestMethod.MIN_LEAF),
                p.get(NcmForestMethod.MU_RULE) == NcmForestMethod.MuRule.MIN_SPLIT,
                p.get(NcmForestMethod.MAX_DEPTH),
                p.get(NcmForestMethod.SUBSET_SIZE),
                p.get(NcmForestMethod.SUBSET_FRACTION),
                p.get(NcmForestMethod.SPLIT),
                p.get(NcmForestMethod.AXIS_FEATURES),
                p.get(NcmForestMethod.STRATEGY),
                p.get(NcmForestMethod.PI),
                p.get(NcmForestMethod.SELECTION),
                p.get(NcmForestMethod.RUST_INSERTION),
                p.get(NcmForestMethod.RUST_NODES) == NcmForestMethod.RustNodes.ALL,
                p.get(NcmForestMethod.BAGGING),
                p.get(NcmForestMethod.LEAF_PRIOR),
                p.get(NcmForestMethod.STANDARDIZE) == NcmForestMethod.Standardize.INITIAL);
    }

    /** Minimum number of samples in each child of a split (mu under the min-leaf rule, 1 under min-split). */
    int minChild() {
        return minSplitRule ? 1 : minLeaf;
    }

    /** Minimum node size for attempting a split (2 mu under the min-leaf rule, mu under min-split; at least 2). */
    int minSplitSize() {
        return Math.max(2, minSplitRule ? minLeaf : 2 * minLeaf);
    }

    /** |K^n| for m classes present at a node. */
    int subsetSize(int m) {
        return subsetSize.size(m, subsetFraction);
    }
}
