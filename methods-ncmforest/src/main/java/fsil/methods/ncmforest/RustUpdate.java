package fsil.methods.ncmforest;

import org.apache.commons.rng.UniformRandomProvider;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * RUST, re-use subtrees (paper Sec. 4d), on one tree of NCM splits.
 *
 * <ol>
 *   <li>Select split nodes as RTST does (paper: "The nodes are selected for update as in RTST"; with
 *   {@code rust_nodes=all} every split node reached by a new class is eligible instead).</li>
 *   <li>Breadth-first pass carrying, for every node, the samples that newly enter its subtree (the new samples
 *   at the root). At a selected node reached by samples of a new class, each such class goes through one
 *   {@link ReservoirPolicy} step. If K^n changed, the added centroids are computed from the node's samples
 *   S^n (the samples still in its subtree plus the arriving ones), their directions e are chosen by information
 *   gain with the kept centroids' directions fixed, and the old samples whose side changed leave their leaf and
 *   travel down the other child. Elsewhere arriving samples follow the existing split.</li>
 *   <li>Leaves that gained or lost samples get their lists and counts rebuilt.</li>
 *   <li>Cut bottom-up: a split node with a child holding fewer than {@link ForestConfig#minChild()} samples
 *   becomes a leaf with its subtree's samples.</li>
 *   <li>Grow, as IGT does, every leaf whose sample set changed (or that was cut).</li>
 * </ol>
 * Only samples whose decision changed are moved; each updated node costs O(|S^n| |K'^n| d).
 */
final class RustUpdate {
    private final TreeGrower grower;

    RustUpdate(TreeGrower grower) {
        this.grower = grower;
    }

    /**
     * @param entries     new sample references (ascending)
     * @param isNewClass  per internal class: first seen in this learn() call
     * @param numSamples  number of stored samples (size of the reference space)
     */
    void apply(Tree tree, int[] entries, boolean[] isNewClass, int numSamples, TreeWork w) {
        ForestConfig cfg = w.cfg;
        int bound = tree.idBound();
        boolean[] selected = new boolean[bound];
        List<Node> pre = tree.preOrder();
        if (cfg.rustAllNodes()) {
            for (Node n : pre) {
                selected[n.id] = !n.isLeaf();
            }
        } else {
            for (Node n : NodeSelector.select(tree, cfg.pi(), cfg.selection(), w.selectRng)) {
                selected[n.id] = true;
            }
        }
        int[] leafOf = new int[numSamples];
        Arrays.fill(leafOf, -1);
        for (Node n : pre) {
            if (n.isLeaf()) {
                for (int s : n.samples) {
                    leafOf[s] = n.id;
                }
            } else if (selected[n.id]) {
                w.nodesSelected++;
            }
        }
        IntList[] added = new IntList[bound];
        boolean[] changed = new boolean[bound];
        Pass pass = new Pass(w, isNewClass, leafOf, changed);

        ArrayDeque<Node> queue = new ArrayDeque<>();
        ArrayDeque<int[]> arriving = new ArrayDeque<>();
        queue.add(tree.root);
        arriving.add(entries);
        while (!queue.isEmpty()) {
            Node node = queue.poll();
            int[] inc = arriving.poll();
            if (node.isLeaf()) {
                if (inc.length > 0) {
                    if (added[node.id] == null) {
                        added[node.id] = new IntList();
                    }
                    added[node.id].addAll(inc);
                    for (int s : inc) {
                        leafOf[s] = node.id;
                    }
                    changed[node.id] = true;
                }
                continue;
            }
            IntList toLeft = new IntList();
            IntList toRight = new IntList();
            if (!(selected[node.id] && pass.update(node, inc, toLeft, toRight))) {
                pass.route(node.split, inc, toLeft, toRight);
            }
            queue.add(node.left);
            arriving.add(toLeft.toArray());
            queue.add(node.right);
            arriving.add(toRight.toArray());
        }

        for (Node leaf : tree.leaves()) {
            if (changed[leaf.id]) {
                IntList keep = new IntList(leaf.samples.length);
                for (int s : leaf.samples) {
                    if (leafOf[s] == leaf.id) {
                        keep.add(s);
                    }
                }
                if (added[leaf.id] != null) {
                    keep.addAll(added[leaf.id].toArray());
                }
                leaf.samples = keep.toSortedArray();
                leaf.setCounts(w.histogram(leaf.samples));
            }
        }

        // Cut bottom-up: reverse pre-order visits children before parents.
        List<Node> order = tree.preOrder();
        long[] size = new long[bound];
        for (int i = order.size() - 1; i >= 0; i--) {
            Node n = order.get(i);
            if (n.isLeaf()) {
                size[n.id] = n.total;
                continue;
            }
            size[n.id] = size[n.left.id] + size[n.right.id];
            if (size[n.left.id] < cfg.minChild() || size[n.right.id] < cfg.minChild()) {
                n.becomeLeaf(Tree.subtreeSamples(n));
                n.setCounts(w.histogram(n.samples));
                changed[n.id] = true;
                w.nodesCut++;
            }
        }
        for (Node leaf : tree.leaves()) {
            if (changed[leaf.id]) {
                grower.grow(tree, leaf, w);
            }
        }
    }

    /** State of one breadth-first pass. */
    private static final class Pass {
        private final TreeWork w;
        private final boolean[] isNewClass;
        private final int[] leafOf;
        private final boolean[] changed;

        Pass(TreeWork w, boolean[] isNewClass, int[] leafOf, boolean[] changed) {
            this.w = w;
            this.isNewClass = isNewClass;
            this.leafOf = leafOf;
            this.changed = changed;
        }

        void route(SplitFunction f, int[] inc, IntList toLeft, IntList toRight) {
            int d = w.dim;
            for (int s : inc) {
                (f.goesRight(w.x, s * d) ? toRight : toLeft).add(s);
            }
            w.distanceEvals += (long) inc.length * f.comparisons();
        }

        /**
         * The reservoir step at a selected node; returns false (nothing done) when no new class reaches the node
         * or K^n is unchanged.
         */
        boolean update(Node node, int[] inc, IntList toLeft, IntList toRight) {
            boolean anyNew = false;
            for (int s : inc) {
                if (isNewClass[w.y[s]]) {
                    anyNew = true;
                    break;
                }
            }
            if (!anyNew) {
                return false;
            }
            NcmSplit f = (NcmSplit) node.split;
            int[] curLeft = gather(node.left);
            int[] curRight = gather(node.right);
            int nl = curLeft.length;
            int nr = curRight.length;
            int n = nl + nr + inc.length;
            int[] all = new int[n];
            System.arraycopy(curLeft, 0, all, 0, nl);
            System.arraycopy(curRight, 0, all, nl, nr);
            System.arraycopy(inc, 0, all, nl + nr, inc.length);
            ClassHistogram hist = ClassHistogram.of(all, n, w.y, w.classScratch);

            int[] oldMembers = f.classes();
            int[] members = oldMembers;
            IntList pool = new IntList();
            for (int c : hist.classes()) {
                if (!isNewClass[c]) {
                    pool.add(c);
                }
            }
            int m = pool.size();
            UniformRandomProvider rng = w.reservoirRng;
            for (int c : hist.classes()) {
                if (!isNewClass[c]) {
                    continue;
                }
                int[] absent = absent(pool, members);
                members = w.cfg.rustInsertion().insert(members, Math.max(1, m), c, absent, w.cfg.subsetSize(m + 1), rng);
                pool.add(c);
                m++;
            }
            if (Arrays.equals(members, oldMembers)) {
                return false;
            }

            int d = w.dim;
            int s = members.length;
            float[] centroids = new float[s * d];
            boolean[] dir = new boolean[s];
            boolean[] fixed = new boolean[s];
            IntList addedClasses = new IntList();
            IntList addedPos = new IntList();
            float[] oldCentroids = f.centroids();
            for (int k = 0; k < s; k++) {
                int old = indexOf(oldMembers, members[k]);
                if (old >= 0) {
                    System.arraycopy(oldCentroids, old * d, centroids, k * d, d);
                    dir[k] = f.rightAt(old);
                    fixed[k] = true;
                } else {
                    addedClasses.add(members[k]);
                    addedPos.add(k);
                }
            }
            int[] addedArr = addedClasses.toArray();
            if (addedArr.length > 0) {
                float[] fresh = NcmSplitSearch.centroids(addedArr, all, n, w);
                for (int a = 0; a < addedArr.length; a++) {
                    System.arraycopy(fresh, a * d, centroids, addedPos.get(a) * d, d);
                }
            }
            int[] nearest = NcmSplitSearch.nearest(centroids, s, all, n, w);
            PartitionScorer scorer = new PartitionScorer(s, nearest, all, n, w.y, hist, w.classScratch, w.entropy, 0);
            chooseDirections(scorer, dir, addedPos.toArray(), rng);
            NcmSplit updated = new NcmSplit(members, centroids, dir, d);
            node.split = updated;
            w.nodesUpdated++;

            for (int i = 0; i < n; i++) {
                int smp = all[i];
                boolean right = dir[nearest[i]];
                boolean wasOld = i < nl + nr;
                if (wasOld && right == (i >= nl)) {
                    continue;
                }
                if (wasOld) {
                    if (leafOf[smp] >= 0) {
                        changed[leafOf[smp]] = true;
                        leafOf[smp] = -1;
                    }
                    w.samplesMoved++;
                }
                (right ? toRight : toLeft).add(smp);
            }
            return true;
        }

        /**
         * Directions of the added centroids by information gain, the others fixed: all 2^a combinations when they
         * fit in the candidate budget, else one centroid at a time. Ties are broken at random.
         */
        private void chooseDirections(PartitionScorer scorer, boolean[] dir, int[] addedPos, UniformRandomProvider rng) {
            int a = addedPos.length;
            if (a == 0) {
                return;
            }
            if (a < 20 && (1 << a) <= w.cfg.candidates()) {
                NcmSplitSearch.Best best = new NcmSplitSearch.Best();
                for (int code = 0; code < (1 << a); code++) {
                    for (int j = 0; j < a; j++) {
                        dir[addedPos[j]] = ((code >>> j) & 1) != 0;
                    }
                    best.consider(dir, scorer.score(dir), rng);
                    w.candidatesScored++;
                }
                System.arraycopy(best.assignment, 0, dir, 0, dir.length);
                return;
            }
            for (int j = 0; j < a; j++) {
                dir[addedPos[j]] = false;
            }
            for (int j = 0; j < a; j++) {
                NcmSplitSearch.Best best = new NcmSplitSearch.Best();
                dir[addedPos[j]] = false;
                best.consider(dir, scorer.score(dir), rng);
                dir[addedPos[j]] = true;
                best.consider(dir, scorer.score(dir), rng);
                w.candidatesScored += 2;
                dir[addedPos[j]] = best.assignment[addedPos[j]];
            }
        }

        /** References still in the leaves of the subtree of {@code n} (those that have not moved away). */
        private int[] gather(Node n) {
            IntList out = new IntList();
            ArrayDeque<Node> stack = new ArrayDeque<>();
            stack.push(n);
            while (!stack.isEmpty()) {
                Node m = stack.pop();
                if (m.isLeaf()) {
                    for (int s : m.samples) {
                        if (leafOf[s] == m.id) {
                            out.add(s);
                        }
                    }
                } else {
                    stack.push(m.right);
                    stack.push(m.left);
                }
            }
            return out.toArray();
        }

        private static int[] absent(IntList pool, int[] members) {
            IntList out = new IntList();
            for (int i = 0; i < pool.size(); i++) {
                if (indexOf(members, pool.get(i)) < 0) {
                    out.add(pool.get(i));
                }
            }
            return out.toArray();
        }

        private static int indexOf(int[] a, int v) {
            for (int i = 0; i < a.length; i++) {
                if (a[i] == v) {
                    return i;
                }
            }
            return -1;
        }
    }
}
