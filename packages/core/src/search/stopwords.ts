/**
 * Small English and Russian stop lists, compared with the case-folded word before stemming.
 *
 * Why so small: BM25's idf already discounts common words; the list exists so that an OR query over a long
 * question ("what are the …") does not walk the posting list of "the" in every document (speed), and so that
 * function words do not add noise to the score. Content words that happen to be frequent ("flow", "problem")
 * are deliberately absent. The lists are applied to queries only (see `SearchTuning.stopwords`), so a query
 * made only of stop words ("to be or not to be") still finds its documents.
 */
const ENGLISH = `a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have having he her
here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not of off
on once only or other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours yourself yourselves`;

const RUSSIAN = `а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да даже для до
его ее ей ему если есть еще же за здесь и из или им их к как какой когда кто ли либо мне может мы на над надо наш не
него нее нет ни них но ну о об однако он она они оно от очень по под при с со так также такой там те тем то того
тоже той только том ты у уже хотя чего чей чем что чтобы чье чья эта эти это этого этой этом этот я`;

/** Folded words (ё written as е) that a query may drop. */
export const STOPWORDS: ReadonlySet<string> = new Set(`${ENGLISH} ${RUSSIAN}`.split(/\s+/).filter(Boolean));
