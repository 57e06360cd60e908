import DefaultTheme from 'vitepress/theme';

import './code.css';

/** VitePress's default theme, with code blocks that fit the column or visibly scroll. */
export default DefaultTheme;
