package loopbench.claims;

/**
 * A published article a claim comes from, as the report cites it: original title, an English rendering, author and
 * date where the article gives them, and the setup it measured on.
 */
public record Article(String title, String english, String author, String date, String setup) {

    /** "English rendering (original title), author, date". */
    public String cite() {
        return english + " (\u201c" + title + "\u201d), " + author + ", " + date;
    }
}
