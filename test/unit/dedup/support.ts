export { article, articleWords } from '../../support/articles.js';
