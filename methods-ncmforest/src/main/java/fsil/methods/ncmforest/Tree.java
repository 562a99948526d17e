package fsil.methods.ncmforest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** One tree of the forest: its root and a node-id counter. */
final class Tree {
    Node root;
    private int nextId;

    /** A tree with a single leaf holding {@code samples} (sorted). */
    Tree(int[] samples) {
        root = newNode(0, samples);
    }

    Node newNode(int depth, int[] samples) {
        return new Node(nextId++, depth, samples);
    }

    /** Upper bound (exclusive) of the node ids used so far. */
    int idBound() {
        return nextId;
    }

    /** Nodes in depth-first pre-order, left child first. */
    List<Node> preOrder() {
        List<Node> out = new ArrayList<>();
        ArrayDeque<Node> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            out.add(n);
            if (!n.isLeaf()) {
                stack.push(n.right);
                stack.push(n.left);
            }
        }
        return out;
    }

    /** Leaves in depth-first order, left first. */
    List<Node> leaves() {
        List<Node> out = new ArrayList<>();
        for (Node n : preOrder()) {
            if (n.isLeaf()) {
                out.add(n);
            }
        }
        return out;
    }

    /** The leaf the row at {@code off} of {@code x} reaches. */
    Node leafOf(float[] x, int off) {
        Node n = root;
        while (!n.isLeaf()) {
            n = n.split.goesRight(x, off) ? n.right : n.left;
        }
        return n;
    }

    /** All sample references in the leaves of the subtree of {@code n}, sorted. */
    static int[] subtreeSamples(Node n) {
        IntList all = new IntList();
        ArrayDeque<Node> stack = new ArrayDeque<>();
        stack.push(n);
        while (!stack.isEmpty()) {
            Node m = stack.pop();
            if (m.isLeaf()) {
                all.addAll(m.samples);
            } else {
                stack.push(m.right);
                stack.push(m.left);
            }
        }
        return all.toSortedArray();
    }

    /** A canonical text form of the structure, splits and leaf contents (for equality checks in tests). */
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (Node n : preOrder()) {
            sb.append(n.depth).append(':');
            if (n.isLeaf()) {
                sb.append("leaf").append(java.util.Arrays.toString(n.samples));
            } else {
                sb.append(n.split);
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
