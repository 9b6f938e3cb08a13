import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

// Grades: summary statistics of a class's marks (Bo Chen)
public class Grades {
    private static String[] names = new String[16];
    private static int[] scores = new int[16];
    private static int size = 0;

    private static void add(String who, int score) {
        if (size == names.length) {
            String[] moreNames = new String[size * 2];
            int[] moreScores = new int[size * 2];
            System.arraycopy(names, 0, moreNames, 0, size);
            System.arraycopy(scores, 0, moreScores, 0, size);
            names = moreNames;
            scores = moreScores;
        }
        names[size] = who;
        scores[size] = score;
        size++;
    }

    private static boolean digits(String s) {
        if (s.isEmpty() || s.length() > 3) return false;
        for (char c : s.toCharArray()) {
            if (!Character.isDigit(c)) return false;
        }
        return true;
    }

    // Sorts a copy of the scores with insertion sort.
    private static int[] sortedScores() {
        int[] copy = new int[size];
        for (int i = 0; i < size; i++) copy[i] = scores[i];
        for (int i = 1; i < size; i++) {
            int key = copy[i];
            int j = i - 1;
            while (j >= 0 && copy[j] > key) {
                copy[j + 1] = copy[j];
                j--;
            }
            copy[j + 1] = key;
        }
        return copy;
    }

    private static int bandIndex(int score) {
        switch (score / 5) {
            case 20: case 19: case 18: case 17: return 0;
            case 16: case 15: return 1;
            case 14: case 13: return 2;
            case 12: case 11: case 10: return 3;
            default: return 4;
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
        String text;
        int bad = 0;
        while ((text = reader.readLine()) != null) {
            String[] words = text.trim().split(" +");
            if (words.length == 1 && words[0].isEmpty()) continue;
            if (words.length != 2 || !digits(words[1]) || Integer.parseInt(words[1]) > 100) {
                bad++;
                System.err.println("skipped: " + text);
                continue;
            }
            add(words[0], Integer.parseInt(words[1]));
        }
        if (size == 0) {
            System.out.println("no marks");
            return;
        }
        long sum = 0;
        int hi = 0, lo = 0;
        int[] perBand = new int[5];
        for (int i = 0; i < size; i++) {
            sum += scores[i];
            if (scores[i] > scores[hi]) hi = i;
            if (scores[i] < scores[lo]) lo = i;
            perBand[bandIndex(scores[i])]++;
        }
        int[] s = sortedScores();
        double median = size % 2 == 1 ? s[size / 2] : (s[size / 2 - 1] + s[size / 2]) / 2.0;
        System.out.println("students: " + size);
        System.out.println(String.format("average: %.2f", sum / (double) size));
        System.out.println(String.format("median: %.1f", median));
        System.out.println("highest: " + names[hi] + " " + scores[hi]);
        System.out.println("lowest: " + names[lo] + " " + scores[lo]);
        String[] labels = {"HD", "DN", "CR", "PS", "FL"};
        for (int k = 0; k < 5; k++) System.out.println(labels[k] + ": " + perBand[k]);
        if (bad > 0) System.err.println(bad + " line(s) skipped");
    }
}
