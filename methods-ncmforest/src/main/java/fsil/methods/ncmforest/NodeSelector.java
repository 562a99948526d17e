package fsil.methods.ncmforest;

import org.apache.commons.rng.UniformRandomProvider;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Draws the split nodes RTST re-trains and RUST updates (paper Eq. 7): without replacement, with probability
 * proportional to 1/(|T_n| + 1), until a fraction pi is reached ({@link SelectionRule} says what |T_n| and pi
 * count). Only split nodes are in the pool: cutting a leaf to a leaf would change nothing.
 *
 * <p>Sequential weighted draws without replacement are generated as an exponential race (Efraimidis and
 * Spirakis 2006): node n gets the arrival time E_n (|T_n| + 1) with E_n ~ Exp(1), and nodes are drawn in order of
 * arrival. Removing nodes from the race (a selected node's ancestors and descendants under the samples rule)
 * leaves the remaining order distributed as sequential draws from the remaining pool.
 */
final class NodeSelector {
    private NodeSelector() {
    }

    /** The selected split nodes, in depth-first pre-order. */
    static List<Node> select(Tree tree, double pi, SelectionRule rule, UniformRandomProvider rng) {
        List<Node> pre = tree.preOrder();
        int size = pre.size();
        int[] index = new int[tree.idBound()];
        for (int i = 0; i < size; i++) {
            index[pre.get(i).id] = i;
        }
        long[] samples = new long[size];
        int[] nodes = new int[size];
        int[] last = new int[size];
        int[] parent = new int[size];
        parent[0] = -1;
        for (int i = size - 1; i >= 0; i--) {
            Node n = pre.get(i);
            if (n.isLeaf()) {
                samples[i] = n.total;
                nodes[i] = 1;
                last[i] = i;
            } else {
                int l = index[n.left.id];
                int r = index[n.right.id];
                parent[l] = i;
                parent[r] = i;
                samples[i] = samples[l] + samples[r];
                nodes[i] = 1 + nodes[l] + nodes[r];
                last[i] = last[r];
            }
        }
        List<Integer> pool = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (!pre.get(i).isLeaf()) {
                pool.add(i);
            }
        }
        double[] arrival = new double[size];
        for (int i : pool) {
            double weightInverse = (rule == SelectionRule.SAMPLES ? samples[i] : nodes[i]) + 1.0;
            arrival[i] = -Math.log1p(-rng.nextDouble()) * weightInverse;
        }
        pool.sort(Comparator.<Integer>comparingDouble(i -> arrival[i]).thenComparingInt(i -> i));
        boolean[] chosen = new boolean[size];
        if (rule == SelectionRule.NODES) {
            int target = (int) Math.ceil(pi * pool.size() - 1e-9);
            for (int k = 0; k < target; k++) {
                chosen[pool.get(k)] = true;
            }
        } else {
            double total = samples[0];
            boolean[] blocked = new boolean[size];
            long covered = 0;
            for (int i : pool) {
                if (total <= 0 || covered >= pi * total) {
                    break;
                }
                if (blocked[i]) {
                    continue;
                }
                chosen[i] = true;
                covered += samples[i];
                Arrays.fill(blocked, i, last[i] + 1, true);
                for (int p = parent[i]; p >= 0; p = parent[p]) {
                    blocked[p] = true;
                }
            }
        }
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (chosen[i]) {
                out.add(pre.get(i));
            }
        }
        return out;
    }
}
